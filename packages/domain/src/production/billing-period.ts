import { addDays, daysBetween, daysInMonth } from "../calendar/calendar-math.js";
import { formatDecimalNormalized, multiplyDecimals, parseDecimal } from "../money/decimal.js";
import { fiscalYearStart } from "../reporting/fiscal-periods.js";
import { scheduleForCycle, type RecurringSchedule } from "../recurring/recurring-schedule.js";

export type BillingPeriod = { start: string; end: string; days: number };

/** A catch-up run bills at most this many months of recurring charges. */
export const MAX_CATCH_UP_MONTHS = 12;

/** The same day a month earlier (clamped to that month's end). */
export function monthBefore(date: string): string {
  let year = Number(date.slice(0, 4));
  let month = Number(date.slice(5, 7)) - 1;
  if (month === 0) {
    month = 12;
    year -= 1;
  }
  const day = Math.min(Number(date.slice(8, 10)), daysInMonth(year, month));
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/**
 * A client's billing period for a run: from the day after its last billing to the run date. A
 * client's first run bills one cycle (from the day after the same day last month, or from its start
 * date when later; the first of the run's month for a client without a start date), unless the admin
 * asks for a catch-up from the start date (`catchUp`). Null when the client was already billed
 * through the run date.
 */
export function billingPeriod(
  dateLastBilling: string | null,
  clientStartDate: string | null,
  runDate: string,
  options: { catchUp?: boolean } = {},
): BillingPeriod | null {
  let start: string;
  if (dateLastBilling) start = addDays(dateLastBilling, 1);
  else if (!clientStartDate) start = `${runDate.slice(0, 7)}-01`;
  else {
    const oneCycle = addDays(monthBefore(runDate), 1);
    start = options.catchUp || clientStartDate > oneCycle ? clientStartDate : oneCycle;
  }
  if (start > runDate) return null;
  return { start, end: runDate, days: daysBetween(start, runDate) + 1 };
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

function lastDayOf(serviceMonth: string): string {
  const year = Number(serviceMonth.slice(0, 4));
  const month = Number(serviceMonth.slice(5, 7));
  return `${serviceMonth}-${String(daysInMonth(year, month)).padStart(2, "0")}`;
}

/**
 * The billings of one recurring charge due in a period, one per service month, oldest first.
 * `billFrom` (the later of the charge's start and the customer's open date) keeps it from billing
 * before it existed: a cycle date before it bills nothing, nor a service month that ended before it
 * (capped at the period's end, so a run dated before the charge was entered still bills its cycle;
 * not a start date the user gave it (`options.given`): a charge starting after the period waits).
 * Every billing is dated in the period: Arrears on the period's end (the statement date; the
 * description names the month it covers), Advance on its month's first day, or the period's start
 * or `billFrom` when later: no charge lands in a month already statemented, nor before it existed.
 */
export function recurringDueInPeriod(
  schedule: RecurringSchedule,
  period: BillingPeriod,
  billFrom: string | null = null,
  options: { given?: boolean } = {},
): RecurringDue[] {
  if (options.given && billFrom !== null && billFrom > period.end) return [];
  const from = billFrom === null ? null : billFrom < period.end ? billFrom : period.end;
  const due: RecurringDue[] = [];
  for (const cycleDate of cycleDatesInPeriod(period)) {
    if (from !== null && cycleDate < from) continue;
    const billing = scheduleForCycle(schedule, cycleDate);
    if (!billing.bills || due.some((item) => item.serviceMonth === billing.serviceMonth)) continue;
    if (from !== null && lastDayOf(billing.serviceMonth) < from) continue;
    const floor = from !== null && from > period.start ? from : period.start;
    const dated = schedule.arrears ? period.end : billing.serviceDate;
    due.push({
      serviceMonth: billing.serviceMonth,
      serviceDate: dated < floor ? floor : dated,
      occurrences: billing.occurrences,
    });
  }
  return due;
}

/** The months' names, January first: statements, screens and month pickers say them alike. */
export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/** "October 2026" for 2026-10. */
export function serviceMonthName(serviceMonth: string): string {
  return `${MONTH_NAMES[Number(serviceMonth.slice(5, 7)) - 1] ?? ""} ${serviceMonth.slice(0, 4)}`;
}

/**
 * A recurring posting's description: the charge's own, naming the month it covers when its date is
 * not in that month (Arrears, a catch-up), cut to the ledger's 60 characters.
 */
export function recurringDescription(description: string, due: RecurringDue): string {
  if (due.serviceDate.slice(0, 7) === due.serviceMonth) return description.slice(0, 60);
  const suffix = ` — ${serviceMonthName(due.serviceMonth)}`;
  return `${description.slice(0, 60 - suffix.length)}${suffix}`;
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
