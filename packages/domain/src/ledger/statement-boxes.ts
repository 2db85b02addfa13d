import type { CodeType } from "../codes/code-types.js";
import { addAmounts, negateAmount, subtractAmounts, sumAmounts, toAmount } from "../money/money.js";
import { balanceDirection, monthToDateBucket } from "./ledger-effect.js";

// A statement's summary boxes, computed once from its period's entries and printed the same
// everywhere (API record, PDF, email, production preview): every entry counts in exactly one box.

/** What the boxes need to know of one of the period's entries. */
export type StatementBoxEntry = {
  codeType: CodeType;
  /** Signed effect on the balance (a void or reversal carries the opposite sign). */
  ledgerAmount: string;
  /** A late fee (or its void): its own box, never also in charges. */
  lateFee: boolean;
};

export type StatementBoxes = {
  previousBalance: string;
  charges: string;
  lateFees: string;
  debitAdjustments: string;
  /** Lower the balance; printed negative. */
  payments: string;
  /** Lower the balance; printed negative. */
  creditAdjustments: string;
  newBalance: string;
};

/**
 * previous + charges + late fees + debit adjustments − payments − credit adjustments = new balance.
 * Each box holds its entries in its own sense (a payment box of 10.00 lowered the balance by 10.00);
 * a void lands in the box of what it voids, with the opposite sign.
 */
export function statementBoxes(
  previousBalance: string,
  entries: readonly StatementBoxEntry[],
): StatementBoxes {
  const boxes: StatementBoxes = {
    previousBalance: toAmount(previousBalance),
    charges: "0.00",
    lateFees: "0.00",
    debitAdjustments: "0.00",
    payments: "0.00",
    creditAdjustments: "0.00",
    newBalance: toAmount(previousBalance),
  };
  for (const entry of entries) {
    const bucket = monthToDateBucket(entry.codeType);
    const direction = balanceDirection(entry.codeType);
    if (bucket === null || direction === 0) continue;
    const inSense = direction === 1 ? toAmount(entry.ledgerAmount) : negateAmount(entry.ledgerAmount);
    if (bucket === "charges" && entry.lateFee) boxes.lateFees = addAmounts(boxes.lateFees, inSense);
    else if (bucket === "charges") boxes.charges = addAmounts(boxes.charges, inSense);
    else if (bucket === "debit_adjustments")
      boxes.debitAdjustments = addAmounts(boxes.debitAdjustments, inSense);
    else if (bucket === "payments") boxes.payments = addAmounts(boxes.payments, inSense);
    else boxes.creditAdjustments = addAmounts(boxes.creditAdjustments, inSense);
    boxes.newBalance = addAmounts(boxes.newBalance, entry.ledgerAmount);
  }
  return boxes;
}

/** The new balance the other boxes add up to. */
export function boxesTotal(boxes: Omit<StatementBoxes, "newBalance">): string {
  return subtractAmounts(
    sumAmounts([boxes.previousBalance, boxes.charges, boxes.lateFees, boxes.debitAdjustments]),
    addAmounts(boxes.payments, boxes.creditAdjustments),
  );
}

/** Whether a statement's printed boxes add up to its new balance. */
export function boxesReconcile(boxes: StatementBoxes): boolean {
  return toAmount(boxesTotal(boxes)) === toAmount(boxes.newBalance);
}
