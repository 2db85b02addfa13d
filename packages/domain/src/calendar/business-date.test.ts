import { describe, expect, it } from "vitest";
import { businessDate, isKnownTimeZone, monthStartOf } from "./business-date.js";

describe("business date", () => {
  it("is the calendar day in the provider's time zone, not UTC's", () => {
    const lateEvening = new Date("2026-11-22T03:30:00Z"); // 22:30 on the 21st in New York
    expect(businessDate(lateEvening, "America/New_York")).toBe("2026-11-21");
    expect(businessDate(lateEvening, "UTC")).toBe("2026-11-22");
    expect(businessDate(new Date("2026-12-31T23:59:59Z"), "Pacific/Auckland")).toBe("2027-01-01");
  });

  it("knows the month start and valid zone names", () => {
    expect(monthStartOf("2026-02-28")).toBe("2026-02-01");
    expect(isKnownTimeZone("America/Chicago")).toBe(true);
    expect(isKnownTimeZone("Mars/Olympus")).toBe(false);
  });
});
