export const CODE_TYPES = [
  "info",
  "charge",
  "payment",
  "adjust",
  "debit",
  "percent_discount",
  "flat_discount",
] as const;
export type CodeType = (typeof CODE_TYPES)[number];

export const CODE_TYPE_LABELS: Record<CodeType, string> = {
  info: "Info",
  charge: "Charge",
  payment: "Payment",
  adjust: "Credit adjustment",
  debit: "Debit adjustment",
  percent_discount: "Percent discount",
  flat_discount: "Flat discount",
};

export function isCodeType(value: string): value is CodeType {
  return (CODE_TYPES as readonly string[]).includes(value);
}
