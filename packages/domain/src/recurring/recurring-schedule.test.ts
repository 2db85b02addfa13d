import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  RECURRING_FREQUENCIES,
  inSeason,
  occurrencesInMonth,
  scheduleForCycle,
  type RecurringSchedule,
} from "./recurring-schedule.js";

const everyMonth = (frequency: RecurringSchedule["frequency"], arrears = false): RecurringSchedule => ({
  startMonth: 1,
  endMonth: 12,
  frequency,
  arrears,
});

function cycleDates(year: number): string[] {
  return Array.from({ length: 12 }, (_, index) => `${year}-${String(index + 1).padStart(2, "0")}-05`);
}

describe("recurring schedule", () => {
  it("bills monthly charges every cycle, for the cycle's month in advance and the month before in arrears", () => {
    expect(scheduleForCycle(everyMonth("monthly"), "2026-11-05")).toEqual({
      bills: true,
      serviceMonth: "2026-11",
      occurrences: 1,
      serviceDate: "2026-11-01",
    });
    expect(scheduleForCycle(everyMonth("monthly", true), "2026-01-05")).toEqual({
      bills: true,
      serviceMonth: "2025-12",
      occurrences: 1,
      serviceDate: "2025-12-31",
    });
  });

  it("keeps to the season, wrapping the year", () => {
    const summer: RecurringSchedule = { startMonth: 4, endMonth: 10, frequency: "monthly", arrears: false };
    expect(cycleDates(2026).filter((date) => scheduleForCycle(summer, date).bills)).toHaveLength(7);
    const winter: RecurringSchedule = { startMonth: 11, endMonth: 2, frequency: "monthly", arrears: false };
    expect(
      cycleDates(2026)
        .filter((date) => scheduleForCycle(winter, date).bills)
        .map((date) => date.slice(5, 7)),
    ).toEqual(["01", "02", "11", "12"]);
    expect(inSeason(12, 11, 2)).toBe(true);
    expect(inSeason(6, 11, 2)).toBe(false);
  });

  it("bills quarterly from the start month", () => {
    const quarterly: RecurringSchedule = {
      startMonth: 2,
      endMonth: 1,
      frequency: "quarterly",
      arrears: false,
    };
    expect(
      cycleDates(2026)
        .filter((date) => scheduleForCycle(quarterly, date).bills)
        .map((date) => date.slice(5, 7)),
    ).toEqual(["02", "05", "08", "11"]);
  });

  it("counts sub-monthly occurrences in the service month", () => {
    expect(occurrencesInMonth("daily", 2026, 2)).toBe(28);
    expect(occurrencesInMonth("weekly", 2026, 2)).toBe(4);
    expect(occurrencesInMonth("weekly", 2026, 3)).toBe(5);
    expect(occurrencesInMonth("biweekly", 2026, 2)).toBe(2);
    expect(occurrencesInMonth("biweekly", 2026, 1)).toBe(3);
    expect(occurrencesInMonth("semimonthly", 2026, 6)).toBe(2);
  });

  it("bills a whole-year season exactly 12 / interval times in any 12 consecutive cycles", () => {
    const intervals = { monthly: 1, bimonthly: 2, quarterly: 3, semiannual: 6, annual: 12 } as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(intervals) as (keyof typeof intervals)[])),
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        fc.integer({ min: 2000, max: 2090 }),
        fc.integer({ min: 1, max: 12 }),
        (frequency, startMonth, arrears, year, firstMonth) => {
          const schedule: RecurringSchedule = {
            startMonth,
            endMonth: ((startMonth + 10) % 12) + 1,
            frequency,
            arrears,
          };
          let bills = 0;
          for (let step = 0; step < 12; step += 1) {
            const index = year * 12 + firstMonth - 1 + step;
            const date = `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}-10`;
            const result = scheduleForCycle(schedule, date);
            if (result.bills) {
              bills += 1;
              expect(result.occurrences).toBe(1);
            }
          }
          expect(bills).toBe(12 / intervals[frequency]);
        },
      ),
    );
  });

  it("never bills outside the season, and always bills at least once a month inside it for sub-monthly charges", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RECURRING_FREQUENCIES),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        fc.integer({ min: 2000, max: 2090 }),
        fc.integer({ min: 1, max: 12 }),
        (frequency, startMonth, endMonth, arrears, year, month) => {
          const result = scheduleForCycle(
            { startMonth, endMonth, frequency, arrears },
            `${year}-${String(month).padStart(2, "0")}-15`,
          );
          const serviceMonth = Number(result.serviceMonth.slice(5, 7));
          if (!inSeason(serviceMonth, startMonth, endMonth)) expect(result.bills).toBe(false);
          if (result.bills) expect(result.occurrences).toBeGreaterThanOrEqual(1);
          if (
            ["daily", "weekly", "biweekly", "semimonthly", "monthly"].includes(frequency) &&
            inSeason(serviceMonth, startMonth, endMonth)
          ) {
            expect(result.bills).toBe(true);
          }
        },
      ),
    );
  });
});
