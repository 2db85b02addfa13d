import type { InvoiceStatus } from "../invoices/invoice-rules.js";

// What a statement carries: the one rule that the production run, the preview statement, the demo
// seed and the doctor all follow (the server's SQL is built from these constants).
//
// A statement is its period's ledger: it bills every entry not yet on a statement dated up to its
// date, and nothing dated later, whatever invoice the entry is on, so its new balance is the
// ledger's balance at its date and the period it closes stays closed. It carries (marks processed)
// the customer's closed invoices whose every entry it bills; an open invoice stays open (its entries
// in the period are billed as lines), and a closed invoice holding an entry dated later waits for
// the statement that bills all of it.

/** The invoice status a statement carries. */
export const CARRIED_INVOICE_STATUS: InvoiceStatus = "closed";

/** The system code the run posts late fees under; a void or reversal of one posts under it too. */
export const LATE_FEE_CODE = -1;

/** An entry as the statement rule sees it. */
export type StatementEntryFacts = {
  /** Already on a statement. */
  billed: boolean;
  serviceDate: string;
};

/** Whether a statement dated `statementDate` bills the entry. */
export function statementBillsEntry(entry: StatementEntryFacts, statementDate: string): boolean {
  return !entry.billed && entry.serviceDate <= statementDate;
}

/** Whether a statement dated `statementDate` carries the invoice (given its entries' latest date). */
export function statementCarriesInvoice(
  invoice: { status: InvoiceStatus; latestEntryDate: string | null },
  statementDate: string,
): boolean {
  return (
    invoice.status === CARRIED_INVOICE_STATUS &&
    (invoice.latestEntryDate === null || invoice.latestEntryDate <= statementDate)
  );
}

/** Whether a ledger entry is a late fee (or the void or reversal of one): the late-fee box, not charges. */
export function isLateFee(entry: { code: number }): boolean {
  return entry.code === LATE_FEE_CODE;
}
