import { z } from "zod";

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * True for YYYY-MM-DD naming a day that exists (2024-02-29 yes, 2026-02-30 no). Year 0000 is out:
 * PostgreSQL has no year 0, so it would fail there instead of here.
 */
export function isCalendarDate(value: string): boolean {
  if (!DATE_SHAPE.test(value) || value.startsWith("0000")) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** The field an issue is about: the last key of its path ("customer_amounts.0.date" names "date"). */
function fieldName(path: readonly PropertyKey[] | undefined): string {
  const key = [...(path ?? [])].reverse().find((part) => typeof part === "string");
  return typeof key === "string" ? key : "date";
}

/** Echoes the refused value, shortened, so the message stays readable whatever was sent. */
function shown(input: unknown): string {
  const text = String(input);
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

/**
 * "serviceDate: 2026-02-30 is not a real date (use YYYY-MM-DD)." The field is named in the text too,
 * so a message shown away from its field (a toast, a log) still says which date was wrong.
 */
export function calendarDateMessage(
  path: readonly PropertyKey[] | undefined,
  input: unknown,
  alternative = "",
): string {
  const use = alternative === "" ? "use YYYY-MM-DD" : `use YYYY-MM-DD, ${alternative}`;
  const value = shown(input);
  return DATE_SHAPE.test(value)
    ? `${fieldName(path)}: ${value} is not a real date (${use}).`
    : `${fieldName(path)}: "${value}" is not a date (${use}).`;
}

/**
 * The one schema of a calendar date in API input (fields, list filters, path segments): YYYY-MM-DD
 * naming a real day, so an impossible date is a 400 here rather than a database error or a silent
 * roll-over into the next month.
 */
export function calendarDate() {
  return z
    .string()
    .refine(isCalendarDate, { error: (issue) => calendarDateMessage(issue.path, issue.input) })
    .meta({ description: "YYYY-MM-DD", format: "date" });
}

/** A calendar date, or "0" for "not set" (the CSV download's path segments). */
export function calendarDateOrZero() {
  return z
    .string()
    .refine((value) => value === "0" || isCalendarDate(value), {
      error: (issue) => calendarDateMessage(issue.path, issue.input, "or 0 for no limit"),
    })
    .meta({ description: "YYYY-MM-DD, or 0 for not set", pattern: "^(0|\\d{4}-\\d{2}-\\d{2})$" });
}
