import { isValidDecimalString, multiplyRateByQuantity } from "@cyclebill/domain";
import type { PickedCode, PickedCustomer } from "./pickers";

export const LOCKABLE = [
  "customer",
  "code",
  "description",
  "serviceDate",
  "unitofmeasure",
  "quantity",
  "rate",
  "amount",
] as const;
export type Lockable = (typeof LOCKABLE)[number];

export type Draft = {
  customer: PickedCustomer | null;
  code: PickedCode | null;
  description: string;
  /** "" until the clerk picks a date: the row then shows and posts the server's posting date. */
  serviceDate: string;
  unitofmeasure: string;
  quantity: string;
  rate: string;
};

export function emptyDraft(customer: PickedCustomer | null = null): Draft {
  return {
    customer,
    code: null,
    description: "",
    serviceDate: "",
    unitofmeasure: "1",
    quantity: "1",
    rate: "",
  };
}

/** "35.50000" → "35.50", "2.00000" → "2": extra zeros of the API's 5-place decimals dropped. */
export function tidyDecimal(value: string): string {
  const match = /^(-?\d+)(?:\.(\d*?))0*$/.exec(value);
  if (!match) return value;
  const [, whole, fraction = ""] = match;
  if (fraction === "") return whole ?? value;
  return `${whole}.${fraction.padEnd(2, "0")}`;
}

/** Rate × quantity to cents, or null while either is not a valid number. */
export function draftAmount(rate: string, quantity: string): string | null {
  if (!isValidDecimalString(rate.trim()) || !isValidDecimalString(quantity.trim())) return null;
  return multiplyRateByQuantity(rate.trim(), quantity.trim());
}

/**
 * The date the row shows and posts: the clerk's, else the server's posting date (the first open
 * day once a run closed the books through today), else today while that is still loading.
 */
export function shownServiceDate(draft: Draft, postingDate: string | undefined, today: string): string {
  return draft.serviceDate || postingDate || today;
}

/**
 * Save & New: a fresh row that keeps the customer (the clerk enters the next line for the same
 * customer, or picks another) and the locked columns (a locked amount keeps rate and quantity).
 */
export function nextDraft(current: Draft, isLocked: (column: Lockable) => boolean): Draft {
  return keepLocked(current, emptyDraft(current.customer), isLocked);
}

/** The locked columns of `current` over `fresh` (a locked amount keeps rate and quantity). */
export function keepLocked(current: Draft, fresh: Draft, isLocked: (column: Lockable) => boolean): Draft {
  const kept: Partial<Draft> = {};
  if (isLocked("customer")) kept.customer = current.customer;
  if (isLocked("code")) kept.code = current.code;
  if (isLocked("description")) kept.description = current.description;
  if (isLocked("serviceDate")) kept.serviceDate = current.serviceDate;
  if (isLocked("unitofmeasure")) kept.unitofmeasure = current.unitofmeasure;
  if (isLocked("quantity") || isLocked("amount")) kept.quantity = current.quantity;
  if (isLocked("rate") || isLocked("amount")) kept.rate = current.rate;
  return { ...fresh, ...kept };
}
