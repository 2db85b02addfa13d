import { achEntryClass } from "@cyclebill/domain";
import type { BluepayRequest } from "./bluepay-client.js";

// How a charge is marked for the gateway (card-on-file, ACH class, payer's address), from who
// makes it and how: apart from send-attempt.ts, which saves, sends and records it.

export type PaymentSource = "page" | "staff" | "bulk" | "autopay";

/** The customer's stored method as a charge against it needs it. */
export type StoredMethodToCharge = {
  token: string;
  kind: "card" | "ach";
  mask: string;
  cardType: string;
  storedId: string;
  /** ACH: a signed agreement is on file, and the class the account was stored under. */
  achSignedAgreement: boolean;
  achEntryClass: string;
};

/** What of a payment's input decides its marks. */
export type ChargeMarksInput = {
  source: PaymentSource;
  kind: "sale" | "auth";
  saveMethod?: boolean;
  account: { kind: "stored" | "card" | "ach" };
  achSignedAgreement?: boolean;
  customerIp?: string;
  duplicateOverride?: boolean;
};

/**
 * What the gateway is told about how a charge is made: a card kept on file is marked as such (F
 * when it is being stored, S with the first answer's STORED_ID after), customer-initiated from the
 * pay page and staff entry, merchant-initiated from card runs and autopay; ACH says PAYMENT_TYPE=ACH
 * even when only MASTER_ID names the account, and its entry class (achEntryClass: CCD for a
 * company, WEB from the public page, PPD with a signed agreement, TEL keyed by staff); public-page
 * charges carry the payer's address.
 */
export function chargeMarks(
  input: ChargeMarksInput,
  method: "card" | "ach",
  fromStored: StoredMethodToCharge | null,
  companyName: string,
): Pick<BluepayRequest, "stored" | "docType" | "customerIp" | "duplicateOverride" | "paymentType"> {
  const storedId = fromStored?.storedId ?? "";
  const type = input.source === "page" || input.source === "staff" ? "C" : "M";
  const storing = input.kind === "auth" || (input.saveMethod ?? false);
  const stored: BluepayRequest["stored"] =
    method !== "card"
      ? undefined
      : input.account.kind === "stored"
        ? { indicator: "S", type, ...(storedId ? { id: storedId } : {}) }
        : storing
          ? { indicator: "F", type }
          : undefined;
  const docType =
    method !== "ach"
      ? undefined
      : achEntryClass({
          source: input.source,
          company: companyName,
          signedAgreement: fromStored ? fromStored.achSignedAgreement : (input.achSignedAgreement ?? false),
          storedClass: fromStored?.achEntryClass ?? "",
        });
  return {
    ...(stored ? { stored } : {}),
    ...(docType ? { docType, paymentType: "ACH" as const } : {}),
    ...(input.source === "page" && input.customerIp ? { customerIp: input.customerIp } : {}),
    ...(input.duplicateOverride ? { duplicateOverride: true } : {}),
  };
}
