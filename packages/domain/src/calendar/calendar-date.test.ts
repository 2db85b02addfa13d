import { describe, expect, it } from "vitest";
import { z } from "zod";
import { drfErrorMap } from "../api/drf-messages.js";
import { calendarDate, calendarDateOrZero, isCalendarDate } from "./calendar-date.js";

function messages(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input, { error: drfErrorMap });
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe("calendar dates", () => {
  it("accepts only days that exist", () => {
    for (const day of ["2024-02-29", "2026-12-31", "0001-01-01", "9999-12-31"]) {
      expect(isCalendarDate(day), day).toBe(true);
    }
    for (const day of ["2023-02-29", "2026-02-30", "2026-13-45", "2026-04-31", "2026-00-10", "0000-01-01"]) {
      expect(isCalendarDate(day), day).toBe(false);
    }
    for (const text of ["2024-2-1", "20240201", " 2024-02-01", "2024-02-01T00:00", "+02024-02-01", ""]) {
      expect(isCalendarDate(text), text).toBe(false);
    }
  });

  it("names the field in its message, wherever the field sits", () => {
    const schema = z.object({
      serviceDate: calendarDate(),
      rows: z.array(z.object({ day: calendarDate() })),
    });
    const result = schema.safeParse({ serviceDate: "2026-02-30", rows: [{ day: "soon" }] });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      "serviceDate: 2026-02-30 is not a real date (use YYYY-MM-DD).",
      'day: "soon" is not a date (use YYYY-MM-DD).',
    ]);
    expect(messages(calendarDate(), "x".repeat(100))).toEqual([
      `date: "${"x".repeat(40)}..." is not a date (use YYYY-MM-DD).`,
    ]);
    // Type errors keep DRF's words.
    expect(messages(z.object({ d: calendarDate() }), { d: 20240101 })).toEqual(["Not a valid string."]);
  });

  it("takes 0 for 'not set' where a download path allows it", () => {
    const segment = z.object({ createdFrom: calendarDateOrZero() });
    expect(segment.parse({ createdFrom: "0" })).toEqual({ createdFrom: "0" });
    expect(messages(segment, { createdFrom: "2026-13-45" })).toEqual([
      "createdFrom: 2026-13-45 is not a real date (use YYYY-MM-DD, or 0 for no limit).",
    ]);
  });
});
