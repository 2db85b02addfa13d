// NACHA's rules for what a returned ACH debit, or a notification of change, means for the next one.
// Pure: the gateway-events module applies them. Codes and descriptions follow the NACHA Operating
// Rules' return reason codes (as banks publish them); the classes are ours, each with what it does.

import { daysBetween } from "../calendar/calendar-math.js";

/**
 * nsf: not enough money, may be presented again (R01, R09); administrative: the account is wrong or
 * closed, never debit it again without new details; unauthorized: the customer says no, same;
 * other: reversed and recorded, nothing else changes.
 */
export type AchReturnClass = "nsf" | "administrative" | "unauthorized" | "other";

export type AchReturnCode = { code: string; description: string; returnClass: AchReturnClass };

const CODES: readonly AchReturnCode[] = [
  { code: "R01", description: "Insufficient funds", returnClass: "nsf" },
  { code: "R02", description: "Account closed", returnClass: "administrative" },
  { code: "R03", description: "No account / unable to locate account", returnClass: "administrative" },
  { code: "R04", description: "Invalid account number", returnClass: "administrative" },
  { code: "R05", description: "Unauthorized debit to consumer account", returnClass: "unauthorized" },
  { code: "R06", description: "Returned per originating bank's request", returnClass: "other" },
  { code: "R07", description: "Authorization revoked by customer", returnClass: "unauthorized" },
  { code: "R08", description: "Payment stopped", returnClass: "unauthorized" },
  { code: "R09", description: "Uncollected funds", returnClass: "nsf" },
  { code: "R10", description: "Customer advises not authorized", returnClass: "unauthorized" },
  {
    code: "R11",
    description: "Customer advises entry not in accordance with the terms",
    returnClass: "other",
  },
  { code: "R12", description: "Account sold to another bank", returnClass: "administrative" },
  { code: "R14", description: "Account holder deceased", returnClass: "administrative" },
  { code: "R15", description: "Beneficiary deceased", returnClass: "administrative" },
  { code: "R16", description: "Account frozen", returnClass: "administrative" },
  { code: "R17", description: "File record edit criteria", returnClass: "other" },
  { code: "R20", description: "Non-transaction account", returnClass: "administrative" },
  { code: "R23", description: "Credit entry refused by receiver", returnClass: "other" },
  { code: "R24", description: "Duplicate entry", returnClass: "other" },
  { code: "R29", description: "Corporate customer advises not authorized", returnClass: "unauthorized" },
  { code: "R31", description: "Permissible return entry", returnClass: "other" },
];

const BY_CODE = new Map(CODES.map((entry) => [entry.code, entry]));

/** Every return code we name, in code order. */
export const ACH_RETURN_CODES: readonly AchReturnCode[] = CODES;

/** The code's description and class; an unknown Rnn is "other" with the gateway's own words. */
export function achReturnCode(code: string, gatewayReason = ""): AchReturnCode {
  const known = BY_CODE.get(code.trim().toUpperCase());
  if (known) return known;
  return {
    code: code.trim().toUpperCase(),
    description: gatewayReason.trim() || "Returned",
    returnClass: "other",
  };
}

/** "ACH return R01 Insufficient funds": the reversal's description and what the customer is told. */
export function achReturnText(code: string, gatewayReason = ""): string {
  const known = achReturnCode(code, gatewayReason);
  return `ACH return ${known.code} ${known.description}`;
}

/** The codes after which the account is never debited again until the customer gives new details. */
export const DO_NOT_DEBIT_CODES: readonly string[] = [
  "R02",
  "R03",
  "R04",
  "R05",
  "R07",
  "R08",
  "R10",
  "R16",
  "R20",
  "R29",
];

export function marksDoNotDebit(code: string): boolean {
  return DO_NOT_DEBIT_CODES.includes(code.trim().toUpperCase());
}

/** Only insufficient or uncollected funds may be presented again, and only they may carry a fee. */
export function isNsfReturn(code: string): boolean {
  const upper = code.trim().toUpperCase();
  return upper === "R01" || upper === "R09";
}

/** NACHA: at most two presentations after the original entry's return... */
export const MAX_REPRESENTMENTS = 2;
/** ...within 180 days of the original entry's settlement date. */
export const REPRESENT_WITHIN_DAYS = 180;

/**
 * Whether a returned entry may be presented again: an NSF return (R01/R09), the client's setting
 * on, fewer than two presentations of the original entry so far, and today within 180 days of the
 * original entry's date (its settlement date, or the day it was sent).
 */
export function mayRepresent(input: {
  code: string;
  clientAllows: boolean;
  /** Presentations already made of the original entry (0 for the first return). */
  representedSoFar: number;
  originalDate: string;
  today: string;
}): boolean {
  if (!input.clientAllows || !isNsfReturn(input.code)) return false;
  if (input.representedSoFar >= MAX_REPRESENTMENTS) return false;
  return daysBetween(input.originalDate, input.today) <= REPRESENT_WITHIN_DAYS;
}

/**
 * Whether this return carries the client's return fee: R01/R09 only, a fee set above zero, and
 * none charged for the original entry yet (once per entry, however often it is presented).
 */
export function returnFeeDue(input: { code: string; fee: string; feeAlreadyCharged: boolean }): boolean {
  if (!isNsfReturn(input.code) || input.feeAlreadyCharged) return false;
  const fee = Number(input.fee);
  return Number.isFinite(fee) && fee > 0;
}

/** Notifications of change: what the receiving bank corrected. */
const NOC_CODES: Record<string, string> = {
  C01: "Incorrect account number",
  C02: "Incorrect routing number",
  C03: "Incorrect routing number and account number",
  C04: "Incorrect individual name",
  C05: "Incorrect transaction code (checking or savings)",
  C06: "Incorrect account number and transaction code",
  C07: "Incorrect routing number, account number and transaction code",
};

export function isNocCode(code: string): boolean {
  return code.trim().toUpperCase() in NOC_CODES;
}

/** "Bank correction C01 Incorrect account number". */
export function nocText(code: string): string {
  const upper = code.trim().toUpperCase();
  return `Bank correction ${upper} ${NOC_CODES[upper] ?? "Notification of change"}`;
}

/**
 * A NOC's corrected data as we keep it: digits masked but the last four (the gateway's corrected
 * account number is as secret as the account itself; a name or a transaction code is kept as is).
 */
export function maskCorrectedData(corrected: string): string {
  return corrected
    .trim()
    .replace(/\d(?=(?:\D*\d){4})/g, "x")
    .slice(0, 120);
}

/** What the customer and staff are told when a method must not be debited again. */
export function doNotDebitReason(text: string): string {
  return `${text}: new bank details are needed before the next debit.`.slice(0, 160);
}

export const DO_NOT_DEBIT_MESSAGE =
  "This bank account must not be debited again (the bank returned or corrected it): the customer must give new details.";

export type GatewayEventKindName = "settled" | "returned" | "charged_back" | "chargeback_reversed" | "noc";

/** A gateway record a Trans Notify post or lookup shows, reduced to what decides its meaning. */
export type GatewayRecordFacts = {
  origin: string;
  paymentType: string;
  transType: string;
  status: string;
  authCode: string;
  message: string;
  settleDate: string;
  masterId: string;
};

/**
 * What a confirmed gateway record means for our books (null: nothing to apply). A REJECT record
 * names its original in master_id: on ACH the reject code (R.. a return, C.. a NOC) is in
 * auth_code; on a card, a record moving money back to the merchant (SALE, CAPTURE) or saying
 * "reversal" reverses a chargeback, anything else is the chargeback. An approved SALE with a
 * settlement date is settled. BluePay documents no more than this; the rest is our reading.
 */
export function gatewayRecordMeaning(record: GatewayRecordFacts): GatewayEventKindName | null {
  const origin = record.origin.trim().toUpperCase();
  const type = record.transType.trim().toUpperCase();
  const achCode = record.authCode.trim().toUpperCase();
  // An ACH record naming its original and carrying a reject code is a reject even where the
  // answer leaves origin out (BluePay shows the reject code in auth_code on ACH returns).
  const achReject =
    origin === "" &&
    record.paymentType.trim().toUpperCase() === "ACH" &&
    record.masterId.trim() !== "" &&
    (/^R\d{2}$/.test(achCode) || isNocCode(achCode));
  if (origin === "REJECT" || achReject) {
    if (!record.masterId.trim()) return null;
    const code = record.authCode.trim().toUpperCase();
    if (record.paymentType.trim().toUpperCase() === "ACH") {
      if (/^R\d{2}$/.test(code)) return "returned";
      if (isNocCode(code)) return "noc";
      return null;
    }
    if (type === "SALE" || type === "CAPTURE" || /revers/i.test(record.message)) return "chargeback_reversed";
    return "charged_back";
  }
  if (type === "SALE" && record.status.trim() === "1" && record.settleDate.trim() !== "") return "settled";
  return null;
}
