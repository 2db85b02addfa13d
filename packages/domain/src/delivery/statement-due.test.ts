import { describe, expect, it } from "vitest";
import { autopayChargeDate, dueDateLabel, dueDateText, statementDueDate } from "./statement-due.js";

// The due date reads the client's structured terms (days; 0 is on receipt), never the printed text.
describe("the one due-date rule", () => {
  it("is the statement date plus the client's due days", () => {
    expect(statementDueDate("2025-03-07", 30)).toBe("2025-04-06");
    expect(statementDueDate("2025-12-20", 15)).toBe("2026-01-04");
    expect(statementDueDate("2024-02-10", 20)).toBe("2024-03-01"); // a leap year
    expect(statementDueDate("2025-03-07", 0)).toBe("2025-03-07");
  });

  it("prints on receipt for 0 days, else the date", () => {
    expect(dueDateLabel("2025-03-07", 0)).toBe("Due on receipt, 03/07/2025");
    expect(dueDateLabel("2025-03-07", 30)).toBe("Due by 04/06/2025");
    expect(dueDateText("2025-03-07", 0)).toBe("On receipt, 03/07/2025");
    expect(dueDateText("2025-03-07", 10)).toBe("03/17/2025");
  });

  it("charges autopay on the due date, never before the day after the statement", () => {
    expect(autopayChargeDate("2025-03-07", 30)).toBe("2025-04-06");
    expect(autopayChargeDate("2025-03-07", 0)).toBe("2025-03-08");
    expect(autopayChargeDate("2025-03-31", 1)).toBe("2025-04-01");
    expect(autopayChargeDate("2025-12-31", 0)).toBe("2026-01-01");
  });
});
