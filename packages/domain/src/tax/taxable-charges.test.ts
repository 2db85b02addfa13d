import { describe, expect, it } from "vitest";
import { taxableCharges, type TaxLine } from "./taxable-charges.js";

const line = (overrides: Partial<TaxLine>): TaxLine => ({
  codeType: "charge",
  taxable: true,
  amount: "10.00",
  voided: false,
  ...overrides,
});

describe("taxableCharges", () => {
  it("sums the taxable charges of a taxable customer, exactly", () => {
    expect(taxableCharges("T", [line({ amount: "0.10" }), line({ amount: "0.20" })])).toBe("0.30");
  });

  it("leaves out untaxable codes, non-charges and voided lines", () => {
    expect(
      taxableCharges("T", [
        line({ amount: "7.50" }),
        line({ taxable: false, amount: "100.00" }),
        line({ codeType: "payment", amount: "5.00" }),
        line({ codeType: "debit", amount: "3.00" }),
        line({ voided: true, amount: "40.00" }),
      ]),
    ).toBe("7.50");
  });

  it("is zero for a tax-exempt customer and for no lines", () => {
    expect(taxableCharges("F", [line({})])).toBe("0.00");
    expect(taxableCharges("T", [])).toBe("0.00");
  });
});
