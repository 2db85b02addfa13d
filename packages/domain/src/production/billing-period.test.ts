import { describe, expect, it } from "vitest";
import {
  billingPeriod,
  cycleDatesInPeriod,
  recurringDescription,
  recurringDueInPeriod,
  recurringQuantity,
  startsNewFiscalYear,
} from "./billing-period.js";
import { adminCycleOf, clientCyclesOf, clientSkipReason } from "./client-eligibility.js";

describe("billingPeriod", () => {
  it("runs from the day after the last billing to the run date", () => {
    expect(billingPeriod("2025-02-05", null, "2025-03-05")).toEqual({
      start: "2025-02-06",
      end: "2025-03-05",
      days: 28,
    });
  });
  it("bills a first run one cycle (issue 28 point 4), from the start date only as a catch-up", () => {
    // Failed before: the period ran from the start date, a catch-up of every month since.
    expect(billingPeriod(null, "2024-01-10", "2025-03-05")?.start).toBe("2025-02-06");
    expect(billingPeriod(null, "2025-02-20", "2025-03-05")?.start).toBe("2025-02-20");
    expect(billingPeriod(null, "2024-01-10", "2025-03-05", { catchUp: true })?.start).toBe("2024-01-10");
    expect(billingPeriod(null, "2025-01-10", "2025-03-31")?.start).toBe("2025-03-01");
    expect(billingPeriod(null, null, "2025-03-05")).toEqual({
      start: "2025-03-01",
      end: "2025-03-05",
      days: 5,
    });
  });
  it("is null when the client was billed through the run date", () => {
    expect(billingPeriod("2025-03-05", null, "2025-03-05")).toBeNull();
  });
});

describe("recurring charges due in a period", () => {
  const monthly = { startMonth: 1, endMonth: 12, frequency: "monthly" as const, arrears: false };
  it("bills a monthly advance charge once for the run's month", () => {
    const period = billingPeriod("2025-02-05", null, "2025-03-05")!;
    expect(recurringDueInPeriod(monthly, period)).toEqual([
      { serviceMonth: "2025-03", serviceDate: "2025-03-01", occurrences: 1 },
    ]);
  });
  it("bills arrears for the month before, dated the run date in the open period (issue 28 point 2)", () => {
    const period = billingPeriod("2025-02-05", null, "2025-03-05")!;
    const [due] = recurringDueInPeriod({ ...monthly, arrears: true }, period);
    // Failed before: dated 2025-02-28, a month the February run had statemented.
    expect(due).toEqual({ serviceMonth: "2025-02", serviceDate: "2025-03-05", occurrences: 1 });
    expect(recurringDescription("Lawn care", due!)).toBe("Lawn care — February 2025");
    expect(recurringDescription("x".repeat(60), due!)).toHaveLength(60);
  });
  it("never bills before the charge and its customer existed (issue 28 point 4)", () => {
    const period = billingPeriod("2024-12-15", null, "2025-03-15")!;
    expect(recurringDueInPeriod(monthly, period, "2025-02-20")).toEqual([
      { serviceMonth: "2025-03", serviceDate: "2025-03-01", occurrences: 1 },
    ]);
    expect(recurringDueInPeriod({ ...monthly, arrears: true }, period, "2025-03-10")).toEqual([]);
    // A run dated before the charge was entered still bills its own cycle.
    expect(recurringDueInPeriod(monthly, period, "2025-06-01")).toHaveLength(1);
    // A start date the user gave it after the period: nothing yet.
    expect(recurringDueInPeriod(monthly, period, "2025-06-01", { given: true })).toEqual([]);
  });
  it("catches up every month of a longer period, and skips months out of season or off the interval", () => {
    const period = billingPeriod("2024-12-15", null, "2025-03-15")!;
    expect(cycleDatesInPeriod(period)).toEqual(["2025-01-15", "2025-02-15", "2025-03-15"]);
    expect(recurringDueInPeriod(monthly, period).map((due) => due.serviceMonth)).toEqual([
      "2025-01",
      "2025-02",
      "2025-03",
    ]);
    expect(
      recurringDueInPeriod({ ...monthly, startMonth: 2, endMonth: 2 }, period).map((d) => d.serviceMonth),
    ).toEqual(["2025-02"]);
    expect(
      recurringDueInPeriod({ ...monthly, frequency: "quarterly" }, period).map((d) => d.serviceMonth),
    ).toEqual(["2025-01"]);
  });
  it("multiplies the quantity by the occurrences of a sub-monthly charge", () => {
    const period = billingPeriod("2025-01-31", null, "2025-02-28")!;
    const [due] = recurringDueInPeriod({ ...monthly, frequency: "weekly" }, period);
    expect(due?.occurrences).toBe(4);
    expect(recurringQuantity("1.5", 4)).toBe("6");
    expect(recurringQuantity("2", 1)).toBe("2");
  });
});

describe("clients of a cycle", () => {
  it("takes month-end clients (99) with cycle 28", () => {
    expect(clientCyclesOf(28)).toEqual([28, 99]);
    expect(clientCyclesOf(5)).toEqual([5]);
    expect(adminCycleOf(99)).toBe(28);
  });
  it("skips statuses I, D, N, P, inactive flags C and D, and clients already run", () => {
    const skip = (statusCode: string, inactiveFlag = "", alreadyRun = false) =>
      clientSkipReason({ statusCode, inactiveFlag, alreadyRun });
    expect(["A", "M", "C", "I", "D", "N", "P"].map((status) => skip(status))).toEqual([
      null,
      null,
      null,
      "status_inactive",
      "status_disabled",
      "status_never_process",
      "status_pending",
    ]);
    expect(skip("A", "C")).toBe("no_bills");
    expect(skip("A", "D")).toBe("no_bills_no_reports");
    expect(skip("A", "", true)).toBe("already_run");
  });
});

describe("year-to-date counters", () => {
  it("reset when the run starts a new fiscal year", () => {
    expect(startsNewFiscalYear("2025-06-05", "2025-07-05", 7)).toBe(true);
    expect(startsNewFiscalYear("2025-05-05", "2025-06-05", 7)).toBe(false);
    expect(startsNewFiscalYear("2024-12-05", "2025-01-05", 1)).toBe(true);
    expect(startsNewFiscalYear(null, "2025-01-05", 1)).toBe(true);
  });
});
