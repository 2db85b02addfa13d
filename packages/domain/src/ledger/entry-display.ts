import type { CodeType } from "../codes/code-types.js";
import { toAmount } from "../money/money.js";
import { ledgerAmount } from "./ledger-effect.js";

/** What a screen needs of an entry to show its amount and marks (a subset of the transaction record). */
export type DisplayedEntry = {
  code_type: CodeType;
  /** The signed effect on the balance, as the ledger (and its totals, CSV and PDFs) hold it. */
  ledger_amount: string;
  voided: boolean;
  reversed_by: number | null;
};

/**
 * The one rule for an entry's amount on every screen: its signed effect on the balance, so a row's
 * sign always agrees with what it does to the totals above it. A charge shows $45.00 and its void or
 * reversal -$45.00; a payment shows -$9.00 and its reversal $9.00. Never from code type and amount:
 * an offset shares its original's code and amount but moves the balance the other way. Info lines
 * move nothing and show no amount (null).
 */
export function displayedAmount(entry: Pick<DisplayedEntry, "code_type" | "ledger_amount">): string | null {
  return entry.code_type === "info" ? null : toAmount(entry.ledger_amount);
}

/**
 * The same rule for an amount not yet posted (the add row, a row being edited): what its ledger amount
 * will be. Only new or editable entries are drafted, never offsets, so code type gives the sign.
 */
export function displayedDraftAmount(codeType: CodeType, amount: string): string | null {
  return displayedAmount({ code_type: codeType, ledger_amount: ledgerAmount(codeType, amount) });
}

export type EntryMark = "Voided" | "Reversed";

/** The marks an offset entry leaves on its original: it still counts, and its offset nets it to zero. */
export function entryMarks(entry: Pick<DisplayedEntry, "voided" | "reversed_by">): EntryMark[] {
  const marks: EntryMark[] = [];
  if (entry.voided) marks.push("Voided");
  if (entry.reversed_by !== null) marks.push("Reversed");
  return marks;
}
