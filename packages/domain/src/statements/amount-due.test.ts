import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { amountDueNow, isOverdue, printedAmountDue } from "./amount-due.js";

describe("the one amount-due rule", () => {
  it("prints the new balance, nothing for a credit", () => {
    expect(printedAmountDue("120.5")).toBe("120.50");
    expect(printedAmountDue("0")).toBe("0.00");
    expect(printedAmountDue("-15.00")).toBe("0.00");
  });

  it("is lowered by payments since, never above what is owed now, nothing once superseded", () => {
    const due = (newBalance: string, currentBalance: string, superseded = false) =>
      amountDueNow({ newBalance, currentBalance, superseded });
    expect(due("120.00", "120.00")).toBe("120.00");
    expect(due("120.00", "150.00")).toBe("120.00"); // charges since are the next statement's
    expect(due("120.00", "70.00")).toBe("70.00"); // paid 50 since
    expect(due("120.00", "-5.00")).toBe("0.00");
    // A credit statement and new charges since: nothing is due on the statement (issue 38 point 2).
    expect(due("-20.00", "35.00")).toBe("0.00");
    expect(due("120.00", "120.00", true)).toBe("0.00");
  });

  it("is never negative, never more than printed or owed", () => {
    const cents = fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => (n / 100).toFixed(2));
    fc.assert(
      fc.property(cents, cents, fc.boolean(), (newBalance, currentBalance, superseded) => {
        const due = Number(amountDueNow({ newBalance, currentBalance, superseded }));
        expect(due).toBeGreaterThanOrEqual(0);
        expect(due).toBeLessThanOrEqual(Math.max(0, Number(newBalance)));
        expect(due).toBeLessThanOrEqual(Math.max(0, Number(currentBalance)));
        if (superseded) expect(due).toBe(0);
      }),
      { seed: 38 },
    );
  });

  it("is overdue only with something due after the due date", () => {
    expect(isOverdue("10.00", "2025-04-30", "2025-05-01")).toBe(true);
    expect(isOverdue("10.00", "2025-04-30", "2025-04-30")).toBe(false);
    expect(isOverdue("0.00", "2025-04-30", "2025-05-01")).toBe(false);
    expect(isOverdue("10.00", null, "2025-05-01")).toBe(false);
  });
});
