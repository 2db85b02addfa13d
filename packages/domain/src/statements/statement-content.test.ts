import { describe, expect, it } from "vitest";
import {
  isLateFee,
  LATE_FEE_CODE,
  statementBillsEntry,
  statementCarriesInvoice,
} from "./statement-content.js";

describe("what a statement carries", () => {
  it("bills the entries not yet billed dated up to its date, whatever their invoice", () => {
    expect(statementBillsEntry({ billed: false, serviceDate: "2025-06-07" }, "2025-06-07")).toBe(true);
    expect(statementBillsEntry({ billed: false, serviceDate: "2025-06-08" }, "2025-06-07")).toBe(false);
    expect(statementBillsEntry({ billed: true, serviceDate: "2025-06-01" }, "2025-06-07")).toBe(false);
  });

  it("carries the closed invoices it bills in full; open ones stay open", () => {
    const carries = (status: "open" | "closed" | "processed", latestEntryDate: string | null) =>
      statementCarriesInvoice({ status, latestEntryDate }, "2025-06-07");
    expect(carries("closed", "2025-06-07")).toBe(true);
    expect(carries("closed", null)).toBe(true);
    expect(carries("closed", "2025-06-15")).toBe(false);
    expect(carries("open", "2025-06-01")).toBe(false);
    expect(carries("processed", "2025-06-01")).toBe(false);
  });

  it("knows a late fee (and its void) by the late-fee code alone", () => {
    expect(isLateFee({ code: LATE_FEE_CODE })).toBe(true);
    expect(isLateFee({ code: 100 })).toBe(false);
  });
});
