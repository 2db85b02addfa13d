import { describe, expect, it } from "vitest";
import { boxesReconcile, boxesTotal, statementBoxes } from "./statement-boxes.js";

describe("a statement's boxes", () => {
  it("puts every entry in exactly one box, in its own sense, and adds up", () => {
    const boxes = statementBoxes("100.00", [
      { codeType: "charge", ledgerAmount: "40.00", lateFee: false },
      { codeType: "charge", ledgerAmount: "5.00", lateFee: true },
      { codeType: "charge", ledgerAmount: "-5.00", lateFee: true }, // a voided late fee
      { codeType: "charge", ledgerAmount: "7.50", lateFee: true },
      { codeType: "payment", ledgerAmount: "-30.00", lateFee: false },
      { codeType: "payment", ledgerAmount: "30.00", lateFee: false }, // a reversed payment
      { codeType: "payment", ledgerAmount: "-20.00", lateFee: false },
      { codeType: "adjust", ledgerAmount: "-3.00", lateFee: false },
      { codeType: "debit", ledgerAmount: "2.25", lateFee: false },
      { codeType: "info", ledgerAmount: "0", lateFee: false },
    ]);
    expect(boxes).toEqual({
      previousBalance: "100.00",
      charges: "40.00",
      lateFees: "7.50",
      debitAdjustments: "2.25",
      payments: "20.00",
      creditAdjustments: "3.00",
      newBalance: "126.75",
    });
    expect(boxesReconcile(boxes)).toBe(true);
    expect(boxesTotal(boxes)).toBe("126.75");
  });

  it("notices boxes that do not add up", () => {
    const boxes = statementBoxes("10.00", [{ codeType: "charge", ledgerAmount: "5.00", lateFee: false }]);
    expect(boxesReconcile(boxes)).toBe(true);
    expect(boxesReconcile({ ...boxes, lateFees: "1.00" })).toBe(false);
    expect(boxesReconcile({ ...boxes, newBalance: "15.01" })).toBe(false);
  });

  it("carries a credit balance through", () => {
    const boxes = statementBoxes("-25.00", [{ codeType: "payment", ledgerAmount: "-10.00", lateFee: false }]);
    expect(boxes.newBalance).toBe("-35.00");
    expect(boxesReconcile(boxes)).toBe(true);
  });
});
