import { daysBetween } from "../calendar/calendar-math.js";
import {
  addAmounts,
  compareAmounts,
  isNegativeAmount,
  isZeroAmount,
  minAmount,
  subtractAmounts,
} from "../money/money.js";

export type AgeingBucket = "current" | "days30" | "days60" | "days90" | "over90";
export type AgeingBuckets = Record<AgeingBucket, string>;
export type Debit = { date: string; amount: string };

/**
 * Which entries an ageing counts. A statement, a report's month end or a past day ages the ledger
 * as it stood that day: entries dated after it are "left-out". Today's figures (Home, the customer
 * list and Status tab, the customers export) age everything posted: an entry dated after today
 * (a payment credited on the first open day after a same-day run, a charge the clerk dated ahead)
 * is "current", so the buckets always add up to the balance the customer is shown.
 */
export type LaterEntries = "left-out" | "current";

export const AGEING_BUCKETS: readonly AgeingBucket[] = ["current", "days30", "days60", "days90", "over90"];

/** Age in days to bucket: under 30 current, then 30-59, 60-89, 90-119, and 120 or more. */
export function bucketForAge(days: number): AgeingBucket {
  if (days < 30) return "current";
  if (days < 60) return "days30";
  if (days < 90) return "days60";
  if (days < 120) return "days90";
  return "over90";
}

export function emptyBuckets(): AgeingBuckets {
  return { current: "0.00", days30: "0.00", days60: "0.00", days90: "0.00", over90: "0.00" };
}

/**
 * Ages a balance first-in-first-out: payments and credits settle the oldest debits, so what is
 * still owed is made of the newest ones. A credit (or zero) balance is all current; any part of
 * the balance not explained by debits counts as the oldest.
 */
export function ageBalance(balance: string, debits: readonly Debit[], asOf: string): AgeingBuckets {
  const buckets = emptyBuckets();
  if (isNegativeAmount(balance) || isZeroAmount(balance)) {
    buckets.current = addAmounts(balance, "0");
    return buckets;
  }
  let remaining = balance;
  const newestFirst = [...debits].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  for (const debit of newestFirst) {
    if (compareAmounts(remaining, "0") <= 0) break;
    if (compareAmounts(debit.amount, "0") <= 0) continue;
    const taken = minAmount(remaining, debit.amount);
    const bucket = bucketForAge(daysBetween(debit.date, asOf));
    buckets[bucket] = addAmounts(buckets[bucket], taken);
    remaining = subtractAmounts(remaining, taken);
  }
  if (compareAmounts(remaining, "0") > 0) buckets.over90 = addAmounts(buckets.over90, remaining);
  return buckets;
}

export function addBuckets(a: AgeingBuckets, b: AgeingBuckets): AgeingBuckets {
  return {
    current: addAmounts(a.current, b.current),
    days30: addAmounts(a.days30, b.days30),
    days60: addAmounts(a.days60, b.days60),
    days90: addAmounts(a.days90, b.days90),
    over90: addAmounts(a.over90, b.over90),
  };
}

/** Whole cents per bucket. */
export type AgeingCents = Record<AgeingBucket, number>;

/**
 * ageBalance in closed form, on a balance and its debits summed by age band (b0: 0-29 days old,
 * b1: 30-59, b2: 60-89, b3: 90-119), in whole cents, for lists of many customers: first in, first
 * out, so for a positive balance B owed under 30 days is min(B, b0), under 60 days min(B, b0 + b1),
 * and so on, the rest over 90; a credit (or zero) balance is all current. The server's SQL form
 * (ageingBucketsSql) is generated beside it and both are held to ageBalance by parity tests.
 */
export function ageCentsByBands(
  balance: number,
  bands: readonly [number, number, number, number],
): AgeingCents {
  const owed = (within: number) => (balance <= 0 ? balance : Math.min(balance, within));
  const [b0, b1, b2, b3] = bands;
  const u30 = owed(b0);
  const u60 = owed(b0 + b1);
  const u90 = owed(b0 + b1 + b2);
  const u120 = owed(b0 + b1 + b2 + b3);
  return { current: u30, days30: u60 - u30, days60: u90 - u60, days90: u120 - u90, over90: balance - u120 };
}
