import { z } from "zod";
import { calendarDate } from "../calendar/calendar-date.js";
import { addDays, usDate } from "../calendar/calendar-math.js";

/** True when a service date lies in the closed period (on or before the closed-through date). */
export function inClosedPeriod(serviceDate: string, closedThrough: string | null): boolean {
  return closedThrough !== null && serviceDate <= closedThrough;
}

/** The message of every refused posting, change or removal in a closed period. */
export function closedPeriodMessage(closedThrough: string): string {
  return (
    `The books are closed through ${usDate(closedThrough)}: entries dated on or before it can't be ` +
    `posted, changed or removed. Use a date after ${usDate(closedThrough)}, or ask a provider admin ` +
    `to reopen the period.`
  );
}

/** The first open day of a client's books (null closed-through: anything goes). */
export function firstOpenDate(closedThrough: string | null): string | null {
  return closedThrough === null ? null : addDays(closedThrough, 1);
}

// API records of a client's closed period (admins): the date, its history, reopen and close.

export const closedPeriodEventSchema = z.object({
  id: z.number().int(),
  action: z.enum(["run", "reopen", "close"]),
  closed_through_before: z.string().nullable(),
  closed_through_after: z.string().nullable(),
  reason: z.string(),
  production_run_id: z.number().int().nullable(),
  user: z.string().nullable(),
  created_at: z.string(),
});
export type ClosedPeriodEvent = z.output<typeof closedPeriodEventSchema>;

export const closedPeriodSchema = z.object({
  client_id: z.number().int(),
  books_closed_through: z.string().nullable(),
  /**
   * What Reopen (without a date) would do now, or null when nothing is closed: the date the books
   * would stay closed through, and how many sent statements are dated in the period it opens
   * (they stop proving themselves once their period changes, until reissued).
   */
  reopen: z.object({ closed_through: z.string().nullable(), statements: z.number().int() }).nullable(),
  history: z.array(closedPeriodEventSchema),
});
export type ClosedPeriod = z.output<typeof closedPeriodSchema>;

export const reopenPeriodSchema = z.object({
  reason: z.string().trim().min(1, "Say why the period is reopened.").max(500),
  /** The books stay closed through this date (null: nothing closed); default: before the last close. */
  closed_through: calendarDate().nullable().optional(),
});
export type ReopenPeriod = z.output<typeof reopenPeriodSchema>;

export const closePeriodSchema = z.object({
  reason: z.string().trim().max(500).optional(),
  /** Close through this date; default: the date closed before the last reopen. */
  closed_through: calendarDate().optional(),
});
export type ClosePeriod = z.output<typeof closePeriodSchema>;
