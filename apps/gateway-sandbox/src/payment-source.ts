import {
  cardTypeOf,
  checkExpiry,
  fingerprintOf,
  isCardNumber,
  maskAch,
  maskDigits,
  parseAchAccount,
} from "./card-checks.js";
import { refuse } from "./protocol-answer.js";
import type { SandboxTransaction } from "./sandbox-transaction.js";

// Where a charge takes its money from: the account sent (PAYMENT_ACCOUNT) or the one of an earlier
// transaction (MASTER_ID). Only a mask and a keyed fingerprint are kept.

export type PaymentSource = Pick<
  SandboxTransaction,
  "paymentType" | "mask" | "cardType" | "cardExpire" | "fingerprint" | "name1" | "name2"
>;

export type Field = (name: string) => string;

export function sourceFrom(earlier: SandboxTransaction): PaymentSource {
  const { paymentType, mask, cardType, cardExpire, fingerprint, name1, name2 } = earlier;
  return { paymentType, mask, cardType, cardExpire, fingerprint, name1, name2 };
}

export function sourceOf(
  field: Field,
  master: SandboxTransaction | undefined,
  fingerprintKey: Buffer,
  now: Date,
): PaymentSource {
  const paymentType = field("PAYMENT_TYPE") || "CREDIT";
  if (paymentType !== "CREDIT" && paymentType !== "ACH") refuse("Invalid PAYMENT_TYPE");
  // With MASTER_ID, whatever is not sent comes from that earlier transaction (its account, names).
  const names = {
    name1: field("NAME1") || master?.name1 || "",
    name2: field("NAME2") || master?.name2 || "",
  };
  const account = field("PAYMENT_ACCOUNT");
  if (account === "") {
    if (!master) refuse("Missing PAYMENT_ACCOUNT");
    if (master.fingerprint === "") refuse("Invalid MASTER_ID");
    return { ...sourceFrom(master), ...names };
  }
  const fingerprint = fingerprintOf(fingerprintKey, account);
  if (paymentType === "ACH") {
    const ach = parseAchAccount(account) ?? refuse("Invalid PAYMENT_ACCOUNT");
    return { paymentType, mask: maskAch(ach), cardType: "ACH", cardExpire: "", fingerprint, ...names };
  }
  if (!isCardNumber(account)) refuse("Invalid PAYMENT_ACCOUNT");
  const cardExpire = field("CARD_EXPIRE");
  const expiry = checkExpiry(cardExpire, now);
  if (expiry === "invalid") refuse("Invalid CARD_EXPIRE");
  if (expiry === "expired") refuse("CARD_EXPIRE is in the past");
  const cvv2 = field("CARD_CVV2");
  if (cvv2 !== "" && !/^\d{3,4}$/.test(cvv2)) refuse("Invalid CARD_CVV2");
  const mask = maskDigits(account);
  return { paymentType, mask, cardType: cardTypeOf(account), cardExpire, fingerprint, ...names };
}

/**
 * Card-on-file fields: STORED_INDICATOR F (first) or S (subsequent, with the STORED_ID the first
 * answer gave), STORED_TYPE C or M. An approved first use answers a new network transaction id
 * (the sandbox's own "TESTID..." form, from `nextId`); a later one answers the id it was sent.
 */
export function storedIdOf(field: Field, paymentType: string, nextId: bigint): string {
  const indicator = field("STORED_INDICATOR");
  const type = field("STORED_TYPE");
  if (indicator === "" && type === "" && field("STORED_ID") === "") return "";
  if (paymentType !== "CREDIT") refuse("STORED_INDICATOR is for cards");
  if (indicator !== "F" && indicator !== "S") refuse("Invalid STORED_INDICATOR");
  if (type !== "C" && type !== "M") refuse("Invalid STORED_TYPE");
  if (indicator === "S") return field("STORED_ID");
  return `TESTID${String(nextId).slice(-9)}`;
}
