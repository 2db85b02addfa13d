import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sumAmounts } from "../money/money.js";
import { ageBalance, bucketForAge } from "./age-balance.js";

describe("ageing a balance", () => {
  it("puts ages in the 30/60/90/120-day buckets", () => {
    expect([0, 29, 30, 59, 60, 89, 90, 119, 120, 400].map(bucketForAge)).toEqual([
      "current",
      "current",
      "days30",
      "days30",
      "days60",
      "days60",
      "days90",
      "days90",
      "over90",
      "over90",
    ]);
  });

  it("settles the oldest debits first, so the newest make up what is owed", () => {
    const debits = [
      { date: "2026-08-05", amount: "50.00" },
      { date: "2026-09-05", amount: "50.00" },
      { date: "2026-10-05", amount: "50.00" },
      { date: "2026-11-05", amount: "50.00" },
    ];
    // 200 charged, 80 paid: 120 owed = Nov 50 + Oct 50 + 20 of Sep.
    expect(ageBalance("120.00", debits, "2026-11-21")).toEqual({
      current: "50.00",
      days30: "50.00",
      days60: "20.00",
      days90: "0.00",
      over90: "0.00",
    });
  });

  it("keeps credit balances current and counts an unexplained balance as the oldest", () => {
    expect(ageBalance("-15.00", [], "2026-11-21").current).toBe("-15.00");
    expect(ageBalance("30.00", [{ date: "2026-11-20", amount: "10.00" }], "2026-11-21")).toMatchObject({
      current: "10.00",
      over90: "20.00",
    });
  });

  it("always splits exactly the balance across the buckets", () => {
    const cents = fc.integer({ min: 1, max: 10_000_00 }).map((c) => (c / 100).toFixed(2));
    fc.assert(
      fc.property(
        fc.integer({ min: -5_000_00, max: 50_000_00 }).map((c) => (c / 100).toFixed(2)),
        fc.array(fc.record({ date: fc.integer({ min: 0, max: 400 }), amount: cents }), { maxLength: 20 }),
        (balance, raw) => {
          const debits = raw.map((debit) => ({
            date: new Date(Date.UTC(2026, 10, 21) - debit.date * 86_400_000).toISOString().slice(0, 10),
            amount: debit.amount,
          }));
          const buckets = ageBalance(balance, debits, "2026-11-21");
          expect(sumAmounts(Object.values(buckets))).toBe(sumAmounts([balance]));
        },
      ),
    );
  });
});
