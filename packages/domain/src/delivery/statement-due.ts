import { formatUsd, isNegativeAmount, isZeroAmount } from "../money/money.js";
import { addDays, usDate } from "../calendar/calendar-math.js";

// The one due-date rule and the autopay notice: printed the same on the statement PDF, its email,
// the pay page and the production preview.

/** A new client's terms: 30 days, when an unpaid balance starts to age. */
export const DEFAULT_DUE_DAYS = 30;

/**
 * The one due-date rule: the statement date plus the client's due days (its structured terms,
 * clients.due_days; 0 is due on receipt). The terms text is only printed.
 */
export function statementDueDate(statementDate: string, dueDays: number): string {
  return addDays(statementDate, dueDays);
}

/** The due date as a statement's facts print it: "04/06/2025", or "On receipt, 03/07/2025". */
export function dueDateText(statementDate: string, dueDays: number): string {
  const due = usDate(statementDueDate(statementDate, dueDays));
  return dueDays === 0 ? `On receipt, ${due}` : due;
}

/** How the due date prints on the PDF, email, pay page and preview. */
export function dueDateLabel(statementDate: string, dueDays: number): string {
  const due = usDate(statementDueDate(statementDate, dueDays));
  return dueDays === 0 ? `Due on receipt, ${due}` : `Due by ${due}`;
}

/**
 * The day an autopay customer's card or account is charged: the due date, the statement being the
 * advance notice; never before the day after the statement date, so the payment lands in the open
 * period and shows on the next statement (the statemented period stays as printed).
 */
export function autopayChargeDate(statementDate: string, dueDays: number): string {
  const due = statementDueDate(statementDate, dueDays);
  const earliest = addDays(statementDate, 1);
  return due < earliest ? earliest : due;
}

/**
 * What a statement asks of its customer, as its PDF prints it and the documents list shows it (the
 * list's SQL copy, statementDueDateSql, is held to this by a parity test): a credit asks nothing and
 * has no due date; a balance an autopay customer's method is charged for has the charge date; any
 * other statement is due on the due date.
 */
export type StatementDue =
  { kind: "due"; date: string } | { kind: "autopay"; date: string } | { kind: "credit" };

export function statementDue(input: {
  statementDate: string;
  newBalance: string;
  dueDays: number;
  /** The day autopay charges it (recorded, or autopayChargeDate's), or null: not an autopay statement. */
  autopayChargeDate: string | null;
}): StatementDue {
  if (isNegativeAmount(input.newBalance)) return { kind: "credit" };
  if (input.autopayChargeDate !== null && !isZeroAmount(input.newBalance))
    return { kind: "autopay", date: input.autopayChargeDate };
  return { kind: "due", date: statementDueDate(input.statementDate, input.dueDays) };
}

/** The date the documents list shows beside a statement: the one its PDF prints (none for a credit). */
export function statementDueDay(due: StatementDue): string | null {
  return due.kind === "credit" ? null : due.date;
}

/** A stored method as a statement names it: "VISA ending 1111", "bank account ending 6789". */
export function paymentMethodLabel(method: { kind: string; card_type: string; mask: string }): string {
  const last4 = method.mask.replace(/[^0-9]/g, "").slice(-4);
  const name = method.kind === "ach" ? "bank account" : method.card_type || "card";
  return `${name} ending ${last4}`;
}

/** What an autopay customer's statement says instead of asking to be paid. */
export function autopayNotice(input: { amount: string; method: string; chargeDate: string }): string {
  return `Autopay: ${formatUsd(input.amount)} will be charged to your ${input.method} on ${usDate(input.chargeDate)}. Nothing to pay.`;
}
