import { amountToCents } from "@cyclebill/domain";

/**
 * An amount as a screen or a PDF shows it ("$1,234.56", "-$88.94", "($20.00)"; "—" for an info line)
 * in whole cents, through the domain's one money parser.
 */
export function centsOfShown(shown: string): number {
  const text = shown.trim();
  if (text === "—") return 0;
  const negative = text.includes("-") || text.startsWith("(");
  const digits = text.replace(/[$,()\s-]/g, "");
  return amountToCents(negative ? `-${digits}` : digits);
}
