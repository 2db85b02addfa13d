import { describe, expect, it } from "vitest";
import { fiscalYearStart, monthStart } from "./fiscal-periods.js";

describe("fiscal periods", () => {
  it("finds the month and fiscal year starts", () => {
    expect(monthStart("2026-11-21")).toBe("2026-11-01");
    expect(fiscalYearStart("2026-11-21", 1)).toBe("2026-01-01");
    expect(fiscalYearStart("2026-11-21", 7)).toBe("2026-07-01");
    expect(fiscalYearStart("2026-03-02", 7)).toBe("2025-07-01");
    expect(fiscalYearStart("2026-12-31", 12)).toBe("2026-12-01");
  });
});
