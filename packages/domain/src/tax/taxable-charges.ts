import type { CodeType } from "../codes/code-types.js";
import { sumAmounts } from "../money/money.js";

/** One ledger line as the tax rule needs it. */
export type TaxLine = { codeType: CodeType; taxable: boolean; amount: string; voided: boolean };

/**
 * The taxable charges of a customer's lines: charges on taxable codes, not voided, and only for a
 * customer whose tax status is T (taxable); a tax-exempt customer (F) has none.
 * The spec has no tax rate, so the app reports this base, never a computed tax: the Status tab and
 * the invoice PDF both print it from this one rule.
 */
export function taxableCharges(customerTaxStatus: string, lines: readonly TaxLine[]): string {
  if (customerTaxStatus !== "T") return "0.00";
  const amounts = lines
    .filter((line) => line.codeType === "charge" && line.taxable && !line.voided)
    .map((line) => line.amount);
  return amounts.length === 0 ? "0.00" : sumAmounts(amounts);
}

export const TAXABLE_CHARGES_LABEL = "Taxable charges";
