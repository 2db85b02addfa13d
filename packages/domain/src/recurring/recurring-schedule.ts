import { daysInMonth } from "../calendar/calendar-math.js";

export const RECURRING_FREQUENCIES = [
  "daily",
  "weekly",
  "biweekly",
  "semimonthly",
  "monthly",
  "bimonthly",
  "quarterly",
  "semiannual",
  "annual",
] as const;
export type RecurringFrequency = (typeof RECURRING_FREQUENCIES)[number];

export const FREQUENCY_LABELS: Record<RecurringFrequency, string> = {
  daily: "Daily",
  weekly: "Weekly",
  biweekly: "Every two weeks",
  semimonthly: "Twice a month",
  monthly: "Monthly",
  bimonthly: "Every two months",
  quarterly: "Quarterly",
  semiannual: "Twice a year",
  annual: "Yearly",
};

/** Months between bills for frequencies of a month or longer. */
const MONTH_INTERVALS: Partial<Record<RecurringFrequency, number>> = {
  monthly: 1,
  bimonthly: 2,
  quarterly: 3,
  semiannual: 6,
  annual: 12,
};

export type RecurringSchedule = {
  startMonth: number; // 1-12
  endMonth: number; // 1-12; a season may wrap the year (e.g. 11 to 2)
  frequency: RecurringFrequency;
  /** false = Advance (bill the month the cycle runs in), true = Arrears (bill the month just ended). */
  arrears: boolean;
};

export type ScheduledBilling =
  | { bills: false; serviceMonth: string }
  | { bills: true; serviceMonth: string; occurrences: number; serviceDate: string };

/** True when month (1-12) lies in the season from start to end, inclusive, wrapping the year. */
export function inSeason(month: number, startMonth: number, endMonth: number): boolean {
  return startMonth <= endMonth
    ? month >= startMonth && month <= endMonth
    : month >= startMonth || month <= endMonth;
}

/** How many times a charge of a sub-monthly frequency falls in a month, counting from the 1st. */
export function occurrencesInMonth(frequency: RecurringFrequency, year: number, month: number): number {
  const days = daysInMonth(year, month);
  switch (frequency) {
    case "daily":
      return days;
    case "weekly":
      return Math.ceil(days / 7); // days 1, 8, 15, 22 (and 29)
    case "biweekly":
      return Math.ceil(days / 14); // days 1, 15 (and 29)
    case "semimonthly":
      return 2;
    default:
      return 1;
  }
}

/**
 * Whether a recurring charge bills in the production cycle run on `cycleDate` (YYYY-MM-DD), for
 * which month, and how many times. Advance bills the cycle's own month, Arrears the month before.
 * Charges of a month or longer bill on their interval counted from the start month, within the season.
 */
export function scheduleForCycle(schedule: RecurringSchedule, cycleDate: string): ScheduledBilling {
  const cycleYear = Number(cycleDate.slice(0, 4));
  const cycleMonth = Number(cycleDate.slice(5, 7));
  const serviceIndex = cycleYear * 12 + (cycleMonth - 1) - (schedule.arrears ? 1 : 0);
  const year = Math.floor(serviceIndex / 12);
  const month = (serviceIndex % 12) + 1;
  const serviceMonth = `${year}-${String(month).padStart(2, "0")}`;
  if (!inSeason(month, schedule.startMonth, schedule.endMonth)) return { bills: false, serviceMonth };
  const interval = MONTH_INTERVALS[schedule.frequency];
  if (interval !== undefined && (((month - schedule.startMonth) % 12) + 12) % interval !== 0) {
    return { bills: false, serviceMonth };
  }
  const serviceDay = schedule.arrears ? daysInMonth(year, month) : 1;
  return {
    bills: true,
    serviceMonth,
    occurrences: occurrencesInMonth(schedule.frequency, year, month),
    serviceDate: `${serviceMonth}-${String(serviceDay).padStart(2, "0")}`,
  };
}
