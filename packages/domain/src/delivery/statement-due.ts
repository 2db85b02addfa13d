import { formatUsd } from "../money/money.js";
import { addDays } from "../production/billing-period.js";

// The one due-date rule and the autopay notice: printed the same on the statement PDF, its email,
// the pay page and the production preview.

/** When nothing in the client's terms names a number of days. */
export const DEFAULT_DUE_DAYS = 30;

/**
 * Days from the statement date to its due date, read from the client's terms message: "Due on
 * receipt" (or "upon receipt", "immediately") is 0; "Net 15", "Due in 10 days", "within 20 days"
 * is that number; anything else (or empty) is the default 30 days, when the balance would age.
 */
export function dueDaysOfTerms(terms: string | null | undefined): number {
  const text = (terms ?? "").toLowerCase();
  const net = /\bnet\s*(\d{1,3})\b/.exec(text) ?? /\b(\d{1,3})\s*days?\b/.exec(text);
  if (net?.[1] !== undefined) return Number(net[1]);
  if (/receipt|immediately|on demand/.test(text)) return 0;
  return DEFAULT_DUE_DAYS;
}

/** The one due-date rule: the statement date plus the terms' days. */
export function statementDueDate(statementDate: string, terms?: string | null): string {
  return addDays(statementDate, dueDaysOfTerms(terms));
}

/** MM/DD/YYYY, as bills print dates. */
export function usDateOf(iso: string): string {
  const [year, month, day] = iso.split("-");
  return `${month ?? ""}/${day ?? ""}/${year ?? ""}`;
}

/** The due date as a statement's facts print it: "04/06/2025", or "On receipt, 03/07/2025". */
export function dueDateText(statementDate: string, terms: string | null | undefined): string {
  const due = usDateOf(statementDueDate(statementDate, terms));
  return dueDaysOfTerms(terms) === 0 ? `On receipt, ${due}` : due;
}

/** How the due date prints on the PDF, email, pay page and preview. */
export function dueDateLabel(statementDate: string, terms: string | null | undefined): string {
  const due = usDateOf(statementDueDate(statementDate, terms));
  return dueDaysOfTerms(terms) === 0 ? `Due on receipt, ${due}` : `Due by ${due}`;
}

/**
 * The day an autopay customer's card or account is charged: the due date, the statement being the
 * advance notice; never before the day after the statement date, so the payment lands in the open
 * period and shows on the next statement (the statemented period stays as printed).
 */
export function autopayChargeDate(statementDate: string, terms?: string | null): string {
  const due = statementDueDate(statementDate, terms);
  const earliest = addDays(statementDate, 1);
  return due < earliest ? earliest : due;
}

/** A stored method as a statement names it: "VISA ending 1111", "bank account ending 6789". */
export function paymentMethodLabel(method: { kind: string; card_type: string; mask: string }): string {
  const last4 = method.mask.replace(/[^0-9]/g, "").slice(-4);
  const name = method.kind === "ach" ? "bank account" : method.card_type || "card";
  return `${name} ending ${last4}`;
}

/** What an autopay customer's statement says instead of asking to be paid. */
export function autopayNotice(input: { amount: string; method: string; chargeDate: string }): string {
  return `Autopay: ${formatUsd(input.amount)} will be charged to your ${input.method} on ${usDateOf(input.chargeDate)}. Nothing to pay.`;
}
