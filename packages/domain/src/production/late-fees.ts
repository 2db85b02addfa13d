import type { AgeingBuckets } from "../ageing/age-balance.js";
import { addAmounts, compareAmounts, isZeroAmount, percentOf, sumAmounts, toAmount } from "../money/money.js";

export type LateFeeTier = 30 | 60 | 90;
export const LATE_FEE_TIERS: readonly LateFeeTier[] = [30, 60, 90];

/** How a tier charges: a percent of the tier's overdue bucket, or a flat rate. */
export type LateFeeBasis = "rate" | "percent";

/** The client's late-fee settings, as stored (rates may be unfilled). */
export type ClientLateFeeSettings = {
  /** N none; 1/2/3 begin at the 30/60/90-day tier; E only customers with their own 1/2/3. */
  financeFlag: string;
  tiers: Record<LateFeeTier, { basis: string; percent: string | null; charge: string | null }>;
};

export type LateFeeLine = { tier: LateFeeTier; basis: LateFeeBasis; bucket: string; fee: string };
export type LateFee = { lines: LateFeeLine[]; total: string; description: string };

const START_TIERS: Record<string, LateFeeTier> = { "1": 30, "2": 60, "3": 90 };

/**
 * The tier late fees begin at for a customer, or null for none. The customer's flag decides (C uses
 * the client's; N none; 1/2/3); under the client's E only a customer's own 1/2/3 counts.
 */
export function lateFeeStartTier(customerFlag: string, clientFlag: string): LateFeeTier | null {
  if (customerFlag in START_TIERS) return START_TIERS[customerFlag] ?? null;
  if (customerFlag !== "C") return null;
  return START_TIERS[clientFlag] ?? null;
}

/** The overdue amount a tier charges on: the 90 tier takes 90 days and over. */
export function tierBucket(tier: LateFeeTier, ageing: AgeingBuckets): string {
  if (tier === 30) return ageing.days30;
  if (tier === 60) return ageing.days60;
  return addAmounts(ageing.days90, ageing.over90);
}

function filled(value: string | null): value is string {
  return value !== null && value.trim() !== "" && compareAmounts(value, "0") > 0;
}

/**
 * The late fee of one customer as of a run: for each tier from the start tier on, with a positive
 * bucket, percent = bucket × the tier's rate / 100 (half-up to cents), rate = the tier's flat charge.
 * A tier whose rate is not filled charges nothing.
 */
export function computeLateFee(
  customerFlag: string,
  settings: ClientLateFeeSettings,
  ageing: AgeingBuckets,
): LateFee {
  const start = lateFeeStartTier(customerFlag, settings.financeFlag);
  const lines: LateFeeLine[] = [];
  if (start !== null) {
    for (const tier of LATE_FEE_TIERS) {
      if (tier < start) continue;
      const bucket = tierBucket(tier, ageing);
      if (compareAmounts(bucket, "0") <= 0) continue;
      const config = settings.tiers[tier];
      const basis: LateFeeBasis = config.basis === "percent" ? "percent" : "rate";
      const source = basis === "percent" ? config.percent : config.charge;
      if (!filled(source)) continue;
      const fee = basis === "percent" ? percentOf(bucket, source) : toAmount(source);
      if (isZeroAmount(fee)) continue;
      lines.push({ tier, basis, bucket: toAmount(bucket), fee });
    }
  }
  const total = sumAmounts(lines.map((line) => line.fee));
  return { lines, total, description: lateFeeDescription(lines) };
}

/** "Late fee 30/60 days": names the tiers charged; fits the 60-character description limit. */
export function lateFeeDescription(lines: readonly LateFeeLine[]): string {
  return lines.length === 0 ? "" : `Late fee ${lines.map((line) => line.tier).join("/")} days`;
}
