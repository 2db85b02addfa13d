import { compareAmounts, isNegativeAmount, minAmount, toAmount } from "../money/money.js";

// The one amount-due rule of a statement: the statement PDF and its email, the pay page (figure and
// form), the documents list, the card run's autopay charge and the preview all call it (the server's
// SQL copy, amountDueNowSql, is held to it by a parity test).

/** What a statement prints as its amount due when it is made: its new balance, nothing for a credit. */
export function printedAmountDue(newBalance: string): string {
  return isNegativeAmount(newBalance) ? "0.00" : toAmount(newBalance);
}

/** A statement as it stands now. */
export type StatementStanding = {
  /** The statement's new balance. */
  newBalance: string;
  /** What the customer owes now (payments and charges since included). */
  currentBalance: string;
  /** A newer statement of the customer carries this one's balance forward. */
  superseded: boolean;
};

/**
 * What is still due on a statement now: its printed amount due, lowered by what was paid since
 * (never more than the customer owes now); nothing once a newer statement carries it forward.
 * An autopay scheduled or declined changes nothing: only a payment lowers it, through the balance.
 */
export function amountDueNow(statement: StatementStanding): string {
  if (statement.superseded) return "0.00";
  const owed = isNegativeAmount(statement.currentBalance) ? "0.00" : toAmount(statement.currentBalance);
  return minAmount(printedAmountDue(statement.newBalance), owed);
}

/** Overdue: something still due and its due date passed (before today). */
export function isOverdue(amountDue: string, dueDate: string | null, today: string): boolean {
  return dueDate !== null && compareAmounts(amountDue, "0.00") > 0 && dueDate < today;
}
