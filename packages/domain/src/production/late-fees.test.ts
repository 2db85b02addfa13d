import { describe, expect, it } from "vitest";
import { emptyBuckets, type AgeingBuckets } from "../ageing/age-balance.js";
import { computeLateFee, lateFeeStartTier, type ClientLateFeeSettings } from "./late-fees.js";

const flat = (flag: string): ClientLateFeeSettings => ({
  financeFlag: flag,
  tiers: {
    30: { basis: "rate", percent: null, charge: "5.00" },
    60: { basis: "rate", percent: null, charge: "7.50" },
    90: { basis: "rate", percent: null, charge: "10.00" },
  },
});
const percent = (flag: string): ClientLateFeeSettings => ({
  financeFlag: flag,
  tiers: {
    30: { basis: "percent", percent: "1.5", charge: null },
    60: { basis: "percent", percent: "2", charge: null },
    90: { basis: "percent", percent: "3", charge: null },
  },
});
const aged = (values: Partial<AgeingBuckets>): AgeingBuckets => ({ ...emptyBuckets(), ...values });
const everyTier = aged({
  current: "10.00",
  days30: "100.00",
  days60: "50.00",
  days90: "20.00",
  over90: "30.00",
});

describe("late fee start tier", () => {
  it("follows the customer's own 1/2/3, the client's under C, and none under N", () => {
    expect(lateFeeStartTier("1", "N")).toBe(30);
    expect(lateFeeStartTier("2", "N")).toBe(60);
    expect(lateFeeStartTier("3", "1")).toBe(90);
    expect(lateFeeStartTier("N", "1")).toBeNull();
    expect(lateFeeStartTier("C", "1")).toBe(30);
    expect(lateFeeStartTier("C", "2")).toBe(60);
    expect(lateFeeStartTier("C", "3")).toBe(90);
    expect(lateFeeStartTier("C", "N")).toBeNull();
  });

  it("under the client's E charges only customers with their own 1/2/3", () => {
    expect(lateFeeStartTier("C", "E")).toBeNull();
    expect(lateFeeStartTier("2", "E")).toBe(60);
  });
});

describe("computeLateFee", () => {
  it("charges each tier's flat rate from the start tier on, where its bucket is positive", () => {
    expect(computeLateFee("C", flat("1"), everyTier)).toEqual({
      lines: [
        { tier: 30, basis: "rate", bucket: "100.00", fee: "5.00" },
        { tier: 60, basis: "rate", bucket: "50.00", fee: "7.50" },
        { tier: 90, basis: "rate", bucket: "50.00", fee: "10.00" },
      ],
      total: "22.50",
      description: "Late fee 30/60/90 days",
    });
    expect(computeLateFee("C", flat("2"), everyTier).total).toBe("17.50");
    expect(computeLateFee("C", flat("3"), everyTier).total).toBe("10.00");
  });

  it("takes a percent of the bucket, the 90 tier over 90 and over-90 together", () => {
    const fee = computeLateFee("1", percent("N"), everyTier);
    expect(fee.lines.map((line) => line.fee)).toEqual(["1.50", "1.00", "1.50"]);
    expect(fee.total).toBe("4.00");
  });

  it("rounds a percent half-up to cents", () => {
    // 33.33 × 1.5% = 0.49995 → 0.50; 10.10 × 1.5% = 0.1515 → 0.15; 0.33 × 1.5% = 0.00495 → 0.00 (no line)
    expect(computeLateFee("1", percent("N"), aged({ days30: "33.33" })).total).toBe("0.50");
    expect(computeLateFee("1", percent("N"), aged({ days30: "10.10" })).total).toBe("0.15");
    expect(computeLateFee("1", percent("N"), aged({ days30: "0.33" }))).toMatchObject({
      lines: [],
      total: "0.00",
    });
  });

  it("charges nothing for an empty bucket, a credit balance, or a tier whose rate is not filled", () => {
    expect(computeLateFee("1", flat("N"), aged({ current: "-20.00" })).lines).toEqual([]);
    expect(computeLateFee("1", flat("N"), aged({ days60: "40.00" })).lines.map((l) => l.tier)).toEqual([60]);
    const unfilled = percent("1");
    unfilled.tiers[30] = { basis: "percent", percent: null, charge: "9.00" };
    unfilled.tiers[60] = { basis: "rate", percent: "2", charge: "0" };
    expect(computeLateFee("C", unfilled, everyTier).lines.map((l) => l.tier)).toEqual([90]);
  });

  it("charges nothing to customers with N or to C customers of a client with N or E", () => {
    expect(computeLateFee("N", flat("1"), everyTier).total).toBe("0.00");
    expect(computeLateFee("C", flat("N"), everyTier).total).toBe("0.00");
    expect(computeLateFee("C", flat("E"), everyTier).total).toBe("0.00");
    expect(computeLateFee("3", flat("E"), everyTier).total).toBe("10.00");
  });
});
