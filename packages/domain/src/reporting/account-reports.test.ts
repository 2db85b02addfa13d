import { describe, expect, it } from "vitest";
import {
  INVALID_MONTH_MESSAGE,
  accountCategory,
  accountReportParamsSchema,
  parseReportMonth,
  previousMonthLabel,
  reportYears,
} from "./account-reports.js";

describe("report months", () => {
  it("reads YYYY-MM (or YYYY-M) with the month's first and last day", () => {
    expect(parseReportMonth("2024-02")).toEqual({
      year: 2024,
      month: 2,
      label: "2024-02",
      start: "2024-02-01",
      end: "2024-02-29",
    });
    expect(parseReportMonth("2026-9")?.label).toBe("2026-09");
    expect(parseReportMonth("2026-12")?.end).toBe("2026-12-31");
  });

  it("refuses a month not 1-12 or a malformed year with 'Invalid Month'", () => {
    for (const bad of ["2026-13", "2026-0", "26-10", "abcd-01", "2026", "2026-01-01", "0999-01", ""]) {
      expect(parseReportMonth(bad)).toBeNull();
      const parsed = accountReportParamsSchema.safeParse({ client: "1", year_month: bad });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(INVALID_MONTH_MESSAGE);
    }
  });

  it("offers the current year and the seven before; last month wraps the year", () => {
    expect(reportYears("2026-11-22")).toEqual([2026, 2025, 2024, 2023, 2022, 2021, 2020, 2019]);
    expect(previousMonthLabel("2026-01-15")).toBe("2025-12");
    expect(previousMonthLabel("2026-11-22")).toBe("2026-10");
  });
});

describe("account categories", () => {
  it("puts late fees and recurring charges apart, and every other entry by its code type", () => {
    expect(accountCategory("charge", "late_fee")).toBe("late_fees");
    expect(accountCategory("charge", "recurring")).toBe("recurring");
    expect(accountCategory("charge", "user_or_scanner")).toBe("charges");
    expect(accountCategory("payment", "bulk")).toBe("payments");
    expect(accountCategory("flat_discount", "route")).toBe("credit_adjustments");
    expect(accountCategory("adjust", "invoice")).toBe("credit_adjustments");
    expect(accountCategory("debit", "user_or_scanner")).toBe("debit_adjustments");
    expect(accountCategory("info", "user_or_scanner")).toBe("info");
  });
});
