import { formatDecimalNormalized, multiplyDecimals, parseDecimal } from "../money/decimal.js";
import { fiscalYearStart } from "../reporting/fiscal-periods.js";
import { scheduleForCycle, type RecurringSchedule } from "../recurring/recurring-schedule.js";

export type BillingPeriod = { start: string; end: string; days: number };

const DAY_MS = 24 * 60 * 60 * 1000;
/** A catch-up run bills at most this many months of recurring charges. */
export const MAX_CATCH_UP_MONTHS = 12;

function toTime(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

function fromTime(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return fromTime(toTime(date) + days * DAY_MS);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * A client's billing period for a run: from the day after its last billing (or its start date, or
 * the first of the run's month for a client with neither) to the run date. Null when the client
 * was already billed through the run date.
 */
export function billingPeriod(
  dateLastBilling: string | null,
  clientStartDate: string | null,
  runDate: string,
): BillingPeriod | null {
  const start = dateLastBilling
    ? addDays(dateLastBilling, 1)
    : (clientStartDate ?? `${runDate.slice(0, 7)}-01`);
  if (start > runDate) return null;
  return { start, end: runDate, days: Math.round((toTime(runDate) - toTime(start)) / DAY_MS) + 1 };
}

/**
 * The cycle dates that fall in a period: the run date, and for a catch-up period the same day of
 * each earlier month in it (clamped to the month's end), oldest first, at most 12.
 */
export function cycleDatesInPeriod(period: BillingPeriod): string[] {
  const day = Number(period.end.slice(8, 10));
  const dates: string[] = [];
  let year = Number(period.end.slice(0, 4));
  let month = Number(period.end.slice(5, 7));
  while (dates.length < MAX_CATCH_UP_MONTHS) {
    const date = `${year}-${String(month).padStart(2, "0")}-${String(Math.min(day, daysInMonth(year, month))).padStart(2, "0")}`;
    if (date < period.start) break;
    dates.unshift(date);
    month -= 1;
    if (month === 0) {
      month = 12;
      year -= 1;
    }
  }
  return dates;
}

export type RecurringDue = { serviceMonth: string; serviceDate: string; occurrences: number };

/** The billings of one recurring charge due in a period, one per service month, oldest first. */
export function recurringDueInPeriod(schedule: RecurringSchedule, period: BillingPeriod): RecurringDue[] {
  const due: RecurringDue[] = [];
  for (const cycleDate of cycleDatesInPeriod(period)) {
    const billing = scheduleForCycle(schedule, cycleDate);
    if (!billing.bills || due.some((item) => item.serviceMonth === billing.serviceMonth)) continue;
    due.push({
      serviceMonth: billing.serviceMonth,
      serviceDate: billing.serviceDate,
      occurrences: billing.occurrences,
    });
  }
  return due;
}

/** The quantity posted for a billing: the charge's quantity times its occurrences in the month. */
export function recurringQuantity(quantity: string, occurrences: number): string {
  return formatDecimalNormalized(multiplyDecimals(parseDecimal(quantity), parseDecimal(String(occurrences))));
}

/** Whether a run starts a new fiscal year for the client's year-to-date counters. */
export function startsNewFiscalYear(
  dateLastBilling: string | null,
  runDate: string,
  resetMonth: number,
): boolean {
  if (!dateLastBilling) return true;
  return fiscalYearStart(dateLastBilling, resetMonth) !== fiscalYearStart(runDate, resetMonth);
}
