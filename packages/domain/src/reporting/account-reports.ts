import { z } from "zod";
import { onTheWire } from "../api/wire-schema.js";
import { integerParam } from "../api/list-query.js";
import type { CodeType } from "../codes/code-types.js";
import { calendarDate } from "../calendar/calendar-date.js";
import { daysInMonth } from "../calendar/calendar-math.js";

/** Account Reports: the register and the totals of one client's month. */

export const INVALID_MONTH_MESSAGE = "Invalid Month";
export const NO_CLIENT_SELECTED_MESSAGE = "No client selected.";
export const ACCOUNT_REGISTER_FAILED_MESSAGE = "Failed to generate account register.";
export const ACCOUNT_TOTALS_FAILED_MESSAGE = "Failed to generate account totals report.";

/** How many years before the current one the year selector offers (the current year and seven before). */
export const REPORT_YEARS_BACK = 7;

export type ReportMonth = {
  year: number;
  month: number;
  /** YYYY-MM, as in file names. */
  label: string;
  /** First and last day of the month, YYYY-MM-DD. */
  start: string;
  end: string;
};

/** "2026-10" (or "2026-3") to the month, or null for a month that is not 1-12 or a malformed year. */
export function parseReportMonth(text: string): ReportMonth | null {
  const match = /^(\d{4})-(\d{1,2})$/.exec(text);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  if (year < 1900 || month < 1 || month > 12) return null;
  const mm = String(month).padStart(2, "0");
  return {
    year,
    month,
    label: `${match[1]}-${mm}`,
    start: `${match[1]}-${mm}-01`,
    end: `${match[1]}-${mm}-${String(daysInMonth(year, month)).padStart(2, "0")}`,
  };
}

/** The year selector: the current year and the seven before, newest first. */
export function reportYears(today: string): number[] {
  const current = Number(today.slice(0, 4));
  return Array.from({ length: REPORT_YEARS_BACK + 1 }, (_, index) => current - index);
}

/** The month before the one containing `today`, as YYYY-MM (what an owner usually reports on). */
export function previousMonthLabel(today: string): string {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, "0")}`;
}

/** Path parameters of GET pdf/account-register/{client}/{year-month} and pdf/account-totals/…. */
export const accountReportParamsSchema = z.object({
  client: integerParam({ min: 1 }),
  year_month: onTheWire(
    z.string().transform((text, ctx) => {
      const parsed = parseReportMonth(text);
      if (!parsed) {
        ctx.addIssue({ code: "custom", message: INVALID_MONTH_MESSAGE });
        return z.NEVER;
      }
      return parsed;
    }),
    // YYYY-MM from 1900 (the month may have one digit).
    { type: "string", pattern: "^(19|[2-9]\\d)\\d{2}-(0?[1-9]|1[0-2])$" },
  ),
});

export const accountReportQuerySchema = z.looseObject({
  format: z.enum(["pdf", "csv"]).default("pdf"),
});

/**
 * The lines of the reports' totals by code type: late fees and recurring charges are charges the
 * production run posts, shown apart; informational lines move no money.
 */
export const ACCOUNT_CATEGORIES = [
  "charges",
  "payments",
  "credit_adjustments",
  "debit_adjustments",
  "late_fees",
  "recurring",
  "info",
] as const;
export type AccountCategory = (typeof ACCOUNT_CATEGORIES)[number];

export const ACCOUNT_CATEGORY_LABELS: Record<AccountCategory, string> = {
  charges: "Charges",
  payments: "Payments",
  credit_adjustments: "Credit adjustments",
  debit_adjustments: "Debit adjustments",
  late_fees: "Late fees",
  recurring: "Recurring charges",
  info: "Information lines",
};

/**
 * The category of a ledger entry from its code type and how it was posted. A void or reversal
 * takes the category of the entry it offsets (the caller passes that entry's transaction type),
 * so an entry and its offset net to zero in the same line.
 */
export function accountCategory(codeType: CodeType, transactionType: string): AccountCategory {
  if (transactionType === "late_fee") return "late_fees";
  if (transactionType === "recurring") return "recurring";
  switch (codeType) {
    case "charge":
      return "charges";
    case "payment":
      return "payments";
    case "debit":
      return "debit_adjustments";
    case "adjust":
    case "percent_discount":
    case "flat_discount":
      return "credit_adjustments";
    case "info":
      return "info";
  }
}

/**
 * `as_of=YYYY-MM-DD` on the summaries and the customer list: ages balances as of that day from the
 * ledger (entries dated after it are left out). Absent: today.
 */
export const asOfQuerySchema = z.looseObject({
  client_id: integerParam({ min: 1 }).optional(),
  as_of: calendarDate().optional(),
});
