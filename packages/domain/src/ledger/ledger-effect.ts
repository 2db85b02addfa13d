import { negateAmount, toAmount } from "../money/money.js";
import type { CodeType } from "../codes/code-types.js";

/** How a code type moves a customer's balance: charges and debits raise it, payments, credits and discounts lower it. */
export function balanceDirection(codeType: CodeType): 1 | -1 | 0 {
  switch (codeType) {
    case "charge":
    case "debit":
      return 1;
    case "payment":
    case "adjust":
    case "percent_discount":
    case "flat_discount":
      return -1;
    case "info":
      return 0;
  }
}

/** The signed amount a posting adds to the customer's balance; amounts themselves are never negative. */
export function ledgerAmount(codeType: CodeType, amount: string): string {
  const direction = balanceDirection(codeType);
  if (direction === 0) return "0.00";
  return direction === 1 ? toAmount(amount) : negateAmount(amount);
}

export type MonthToDateBucket = "charges" | "payments" | "credit_adjustments" | "debit_adjustments";

/** Which month-to-date figure of the customer a posting adds to; info lines add to none. */
export function monthToDateBucket(codeType: CodeType): MonthToDateBucket | null {
  switch (codeType) {
    case "charge":
      return "charges";
    case "payment":
      return "payments";
    case "adjust":
    case "percent_discount":
    case "flat_discount":
      return "credit_adjustments";
    case "debit":
      return "debit_adjustments";
    case "info":
      return null;
  }
}

export const MARKED_FOR_DELETION_MESSAGE =
  "Customer is marked for deletion and cannot accept charge transactions.";

/** A customer marked for deletion takes payments and adjustments, but no new charges. */
export function refusesPosting(deleteFlag: string | null, codeType: CodeType): boolean {
  return (deleteFlag === "D" || deleteFlag === "S") && codeType === "charge";
}

/** Why a customer may not take a new entry: gone from the client, archived, or marked for deletion (charges only). */
export type PostingRefusal = "unknown" | "archived" | "marked_for_deletion";

/**
 * The posting rule for new business, one for the ledger writer and the batch screens' preview:
 * archived customers take nothing, customers marked for deletion no charges. With no code type
 * (none chosen yet) only what refuses every entry counts.
 */
export function postingRefusal(
  customer: { deleted: boolean; deleteFlag: string | null } | undefined,
  codeType: CodeType | null,
): PostingRefusal | null {
  if (!customer) return "unknown";
  if (customer.deleted) return "archived";
  if (codeType !== null && refusesPosting(customer.deleteFlag, codeType)) return "marked_for_deletion";
  return null;
}
