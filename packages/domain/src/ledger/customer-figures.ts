import { CODE_TYPES, type CodeType } from "../codes/code-types.js";
import { addAmounts, isNegativeAmount, isZeroAmount, negateAmount, toAmount } from "../money/money.js";
import { balanceDirection, monthToDateBucket, type MonthToDateBucket } from "./ledger-effect.js";

export const MONTH_TO_DATE_BUCKETS = [
  "charges",
  "payments",
  "credit_adjustments",
  "debit_adjustments",
] as const satisfies readonly MonthToDateBucket[];

/** The one map from a month-to-date bucket to the customer column that keeps it. */
export const MONTH_TO_DATE_COLUMNS = {
  charges: "mtd_charges",
  payments: "mtd_payments",
  credit_adjustments: "mtd_cr_adj",
  debit_adjustments: "mtd_db_adj",
} as const satisfies Record<MonthToDateBucket, string>;

/** The code types whose entries add up in a bucket (the inverse of `monthToDateBucket`). */
export function codeTypesOfBucket(bucket: MonthToDateBucket): CodeType[] {
  return CODE_TYPES.filter((codeType) => monthToDateBucket(codeType) === bucket);
}

/** What the ledger writer needs to know of an entry to move its customer's figures. */
export type LedgerEntryFigures = {
  codeType: CodeType;
  /** Never negative. */
  amount: string;
  /** Signed effect on the balance (opposite to the code type's direction for voids and reversals). */
  ledgerAmount: string;
  serviceDate: string;
};

/** How an entry changes the figures kept beside a customer's ledger. */
export type CustomerFiguresDelta = {
  balance: string;
  entries: number;
  amountTotal: string;
  monthToDate: Record<MonthToDateBucket, string>;
  /** A payment's service date (the last pay date moves forward to it), or null. */
  lastPayDate: string | null;
};

export function zeroFiguresDelta(): CustomerFiguresDelta {
  return {
    balance: "0.00",
    entries: 0,
    amountTotal: "0.00",
    monthToDate: { charges: "0.00", payments: "0.00", credit_adjustments: "0.00", debit_adjustments: "0.00" },
    lastPayDate: null,
  };
}

/**
 * The change an entry makes to its customer's figures when it joins the ledger ("post") or
 * leaves it ("remove"). The month-to-date bucket moves by the entry's amount in the bucket's own
 * sense: a payment adds to payments, a void of a payment takes it back out.
 */
export function entryFiguresDelta(
  entry: LedgerEntryFigures,
  change: "post" | "remove",
): CustomerFiguresDelta {
  const sign = (amount: string) => (change === "post" ? toAmount(amount) : negateAmount(amount));
  const delta = zeroFiguresDelta();
  delta.balance = sign(entry.ledgerAmount);
  delta.entries = change === "post" ? 1 : -1;
  delta.amountTotal = sign(entry.amount);
  const bucket = monthToDateBucket(entry.codeType);
  const direction = balanceDirection(entry.codeType);
  if (bucket && direction !== 0) {
    const inBucketSense = direction === 1 ? toAmount(entry.ledgerAmount) : negateAmount(entry.ledgerAmount);
    delta.monthToDate[bucket] = sign(inBucketSense);
    // Only a payment joining the ledger moves the last pay date; voids and deletions leave it.
    if (bucket === "payments" && change === "post" && !isNegativeAmount(delta.monthToDate.payments)) {
      delta.lastPayDate = entry.serviceDate;
    }
  }
  return delta;
}

export function addFiguresDeltas(a: CustomerFiguresDelta, b: CustomerFiguresDelta): CustomerFiguresDelta {
  const latest =
    a.lastPayDate === null
      ? b.lastPayDate
      : b.lastPayDate === null || a.lastPayDate > b.lastPayDate
        ? a.lastPayDate
        : b.lastPayDate;
  return {
    balance: addAmounts(a.balance, b.balance),
    entries: a.entries + b.entries,
    amountTotal: addAmounts(a.amountTotal, b.amountTotal),
    monthToDate: {
      charges: addAmounts(a.monthToDate.charges, b.monthToDate.charges),
      payments: addAmounts(a.monthToDate.payments, b.monthToDate.payments),
      credit_adjustments: addAmounts(a.monthToDate.credit_adjustments, b.monthToDate.credit_adjustments),
      debit_adjustments: addAmounts(a.monthToDate.debit_adjustments, b.monthToDate.debit_adjustments),
    },
    lastPayDate: latest,
  };
}

/** The signed amount of an entry that offsets (voids or reverses) one with this signed amount. */
export function offsettingLedgerAmount(ledgerAmount: string): string {
  return negateAmount(ledgerAmount);
}

/**
 * Archive at zero: a customer marked for deletion (D or S) is archived as soon as its balance
 * reaches zero, whether a posting, a void or the mark itself brings it there.
 */
export function shouldArchiveAtZero(deleteFlag: string | null, balance: string): boolean {
  return deleteFlag !== null && isZeroAmount(balance);
}
