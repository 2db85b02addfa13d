import { isCalendarDate } from "../calendar/calendar-date.js";
import { addDays, usDate } from "../calendar/calendar-math.js";

/**
 * How far ahead of today a cycle may be run: a bureau runs a cycle a few days early to print and
 * mail before the cycle day (a weekend, a holiday), never a month ahead. Seven days covers a long
 * weekend plus mail time.
 */
export const RUN_DATE_LOOK_AHEAD_DAYS = 7;

/** Why a run date is refused (null: accepted): not a real date, too far ahead, before the last billing. */
export function runDateRefusal(
  runDate: string,
  today: string,
  lastBillingDates: readonly (string | null)[] = [],
): string | null {
  if (!isCalendarDate(runDate)) return `${runDate} is not a real date (use YYYY-MM-DD).`;
  const latest = addDays(today, RUN_DATE_LOOK_AHEAD_DAYS);
  if (runDate > latest)
    return (
      `A run date can be at most ${RUN_DATE_LOOK_AHEAD_DAYS} days ahead of today ` +
      `(${usDate(latest)} at the latest); ${usDate(runDate)} is too far ahead.`
    );
  const last = lastBillingDates.reduce<string | null>(
    (max, date) => (date !== null && (max === null || date > max) ? date : max),
    null,
  );
  if (last !== null && runDate < last)
    return `The run date ${usDate(runDate)} is before the client's last billing date ${usDate(last)}.`;
  return null;
}
