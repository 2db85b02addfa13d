import { usDate } from "../calendar/calendar-math.js";
import type { CodeType } from "../codes/code-types.js";
import { isLateFee } from "./statement-content.js";

// How a printed bill (statement, invoice) names an entry that takes another back, so the customer
// can find what it reverses: "Reversal of payment of 11/03/2026".

/** What a void or reversal takes back, as its line names it. */
export type OffsetOf = {
  kind: "void" | "reversal";
  /** The entry taken back: its code type, code number and service date. */
  codeType: CodeType;
  code: number;
  serviceDate: string;
};

const NOUNS: Record<CodeType, string> = {
  info: "note",
  charge: "charge",
  payment: "payment",
  adjust: "credit",
  debit: "debit",
  percent_discount: "discount",
  flat_discount: "discount",
};

/** The prefixes the ledger writes on an offset's own description ("REVERSAL: Water service"). */
const STORED_PREFIX = /^(REVERSAL|VOID):\s*/i;

/**
 * The line's description: an ordinary entry's own; an offset's names the kind of entry and its
 * date, then what the entry says (the reversed entry's description, or a reason such as "ACH return
 * R01 Insufficient funds").
 */
export function billLineDescription(description: string, offsetOf: OffsetOf | null): string {
  if (!offsetOf) return description;
  const noun = isLateFee(offsetOf) ? "late fee" : NOUNS[offsetOf.codeType];
  const head = `${offsetOf.kind === "void" ? "Void" : "Reversal"} of ${noun} of ${usDate(offsetOf.serviceDate)}`;
  const detail = description.replace(STORED_PREFIX, "").trim();
  return detail === "" ? head : `${head} · ${detail}`;
}
