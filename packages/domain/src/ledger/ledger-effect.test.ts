import { describe, expect, it } from "vitest";
import {
  balanceDirection,
  ledgerAmount,
  monthToDateBucket,
  postingRefusal,
  refusesPosting,
} from "./ledger-effect.js";

describe("ledger effect", () => {
  it("raises the balance for charges and debits and lowers it for payments, credits and discounts", () => {
    expect(ledgerAmount("charge", "10.00")).toBe("10.00");
    expect(ledgerAmount("debit", "2.50")).toBe("2.50");
    expect(ledgerAmount("payment", "10.00")).toBe("-10.00");
    expect(ledgerAmount("adjust", "1.00")).toBe("-1.00");
    expect(ledgerAmount("flat_discount", "1.00")).toBe("-1.00");
    expect(ledgerAmount("percent_discount", "0.10")).toBe("-0.10");
    expect(ledgerAmount("info", "99.00")).toBe("0.00");
    expect(ledgerAmount("payment", "0.00")).toBe("0.00");
    expect(balanceDirection("info")).toBe(0);
  });
});

describe("month-to-date buckets and deletion marks", () => {
  it("puts each code type in its bucket", () => {
    expect(monthToDateBucket("charge")).toBe("charges");
    expect(monthToDateBucket("payment")).toBe("payments");
    expect(monthToDateBucket("adjust")).toBe("credit_adjustments");
    expect(monthToDateBucket("flat_discount")).toBe("credit_adjustments");
    expect(monthToDateBucket("debit")).toBe("debit_adjustments");
    expect(monthToDateBucket("info")).toBeNull();
  });

  it("refuses charges, not payments, for customers marked for deletion", () => {
    expect(refusesPosting("D", "charge")).toBe(true);
    expect(refusesPosting("S", "charge")).toBe(true);
    expect(refusesPosting("D", "payment")).toBe(false);
    expect(refusesPosting("S", "adjust")).toBe(false);
    expect(refusesPosting(null, "charge")).toBe(false);
  });

  it("names why a customer takes no new entry: gone, archived, or marked for deletion (charges only)", () => {
    expect(postingRefusal(undefined, "charge")).toBe("unknown");
    expect(postingRefusal({ deleted: true, deleteFlag: null }, "payment")).toBe("archived");
    expect(postingRefusal({ deleted: true, deleteFlag: null }, null)).toBe("archived");
    expect(postingRefusal({ deleted: false, deleteFlag: "D" }, "charge")).toBe("marked_for_deletion");
    expect(postingRefusal({ deleted: false, deleteFlag: "S" }, "payment")).toBeNull();
    expect(postingRefusal({ deleted: false, deleteFlag: "D" }, null)).toBeNull();
    expect(postingRefusal({ deleted: false, deleteFlag: null }, "charge")).toBeNull();
  });
});
