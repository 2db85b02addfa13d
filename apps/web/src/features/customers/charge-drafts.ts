import {
  drfErrorMap,
  formatUsd,
  isValidDecimalString,
  multiplyRateByQuantity,
  recurringChargeFieldsSchema,
  storedAmountFieldsSchema,
  toQuantity,
  type RecurringFrequency,
} from "@cyclebill/domain";
import type {
  CodeOption,
  RecurringCharge,
  RecurringChargeBody,
  StoredAmount,
  StoredAmountBody,
} from "./customer-children-api";

// Drafts of stored amounts and recurring charges as their forms hold them, validated with the shared
// schemas. The Add Customer dialog and the editor's tabs share them.

/** The code picked in a form: its id for the API, its number and description to show. */
export type PickedCode = Pick<CodeOption, "id" | "code" | "description">;

export type StoredDraft = {
  code: PickedCode | null;
  description: string;
  rate: string;
  quantity: string;
  unitofmeasure: string;
};

export type RecurringDraft = {
  code: PickedCode | null;
  description: string;
  rate: string;
  quantity: string;
  start_month: string;
  end_month: string;
  frequency: RecurringFrequency;
  /** false = Advance, true = Arrears. */
  arrears: boolean;
  unitofmeasure: string;
  /** The first day it may bill, YYYY-MM-DD; "" bills from the day it is entered. */
  start_date: string;
};

export type StoredField = keyof StoredDraft;
export type RecurringField = keyof RecurringDraft;
export type DraftErrors<K extends string> = Partial<Record<K, string>>;

/** The drafts' fields in form order: the first of several inputs with one message carries its text. */
export const STORED_FIELDS: readonly StoredField[] = [
  "code",
  "description",
  "rate",
  "quantity",
  "unitofmeasure",
];
export const RECURRING_FIELDS: readonly RecurringField[] = [
  "code",
  "description",
  "rate",
  "quantity",
  "start_month",
  "end_month",
  "frequency",
  "arrears",
  "unitofmeasure",
  "start_date",
];

export { MONTH_NAMES, MONTH_OPTIONS, monthName } from "../../lib/months";

export function emptyStoredDraft(): StoredDraft {
  return { code: null, description: "", rate: "", quantity: "1", unitofmeasure: "1" };
}

export function emptyRecurringDraft(): RecurringDraft {
  return {
    code: null,
    description: "",
    rate: "",
    quantity: "1",
    start_month: "1",
    end_month: "12",
    frequency: "monthly",
    arrears: false,
    unitofmeasure: "1",
    start_date: "",
  };
}

function pickedCode(id: number, lookup: ReadonlyMap<number, CodeOption>): PickedCode {
  return lookup.get(id) ?? { id, code: id, description: "" };
}

export function storedDraftOf(row: StoredAmount, lookup: ReadonlyMap<number, CodeOption>): StoredDraft {
  return {
    code: pickedCode(row.storedCode, lookup),
    description: row.description,
    rate: trimRate(row.rate),
    quantity: displayQuantity(row.quantity),
    unitofmeasure: String(row.unitofmeasure ?? 1),
  };
}

export function recurringDraftOf(
  row: RecurringCharge,
  lookup: ReadonlyMap<number, CodeOption>,
): RecurringDraft {
  return {
    code: pickedCode(row.auto_code, lookup),
    description: row.description,
    rate: trimRate(row.rate),
    quantity: String(row.quantity),
    start_month: String(row.start_month),
    end_month: String(row.end_month),
    frequency: row.frequency,
    arrears: row.arrears,
    unitofmeasure: String(row.unitofmeasure ?? 1),
    start_date: row.start_date ?? "",
  };
}

/** Rates are stored with 5 decimals; "12.50000" edits as "12.50". */
export function trimRate(rate: string): string {
  const match = /^(\d+)\.(\d*?)0*$/.exec(rate);
  if (!match) return rate;
  const decimals = (match[2] ?? "").padEnd(2, "0");
  return `${match[1] ?? "0"}.${decimals}`;
}

/** Quantities come back with 5 decimals ("3.00000"); they show as typed ("3", "1.5"). */
export function displayQuantity(quantity: string): string {
  return isValidDecimalString(quantity) ? toQuantity(quantity) : quantity;
}

/** quantity × rate, exactly, as dollars; "—" until both are valid numbers. */
export function liveAmount(rate: string, quantity: string): string {
  const r = rate.trim();
  const q = quantity.trim();
  if (!/^\d+(?:\.\d+)?$/.test(r)) return "—";
  if (!isValidDecimalString(q, { allowNegative: false })) return "—";
  return formatUsd(multiplyRateByQuantity(r, q));
}

function issuesToErrors<K extends string>(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  rename: Partial<Record<string, K>>,
): DraftErrors<K> {
  const errors: DraftErrors<K> = {};
  for (const issue of issues) {
    const head = issue.path[0];
    if (typeof head !== "string") continue;
    const field = rename[head] ?? (head as K);
    errors[field] ??= issue.message;
  }
  return errors;
}

/** A stored amount's checked values: its body without the customer. */
export type StoredValues = Omit<StoredAmountBody, "customer">;

/** The stored amount's checks: code and rate ('Stored amounts must have a code and a rate.'), 60 characters, rate digits. */
export function validateStoredDraft(
  draft: StoredDraft,
): { ok: true; data: StoredValues } | { ok: false; errors: DraftErrors<StoredField> } {
  const result = storedAmountFieldsSchema.safeParse(
    {
      storedCode: draft.code?.id,
      description: draft.description,
      rate: draft.rate.trim(),
      quantity: draft.quantity.trim() === "" ? undefined : draft.quantity.trim(),
      unitofmeasure: draft.unitofmeasure,
    },
    { error: drfErrorMap },
  );
  if (!result.success) {
    return {
      ok: false,
      errors: issuesToErrors<StoredField>(result.error.issues, { storedCode: "code" }),
    };
  }
  const data = result.data;
  return {
    ok: true,
    data: {
      storedCode: data.storedCode as number,
      description: data.description,
      rate: data.rate,
      quantity: data.quantity,
      unitofmeasure: data.unitofmeasure,
    },
  };
}

/** A recurring charge's checked values: its body without the customer. */
export type RecurringValues = Omit<RecurringChargeBody, "customer">;

/** The recurring charge's checks: 'Recurring charges must have a code, rate, start month, and end month.' and the rest. */
export function validateRecurringDraft(
  draft: RecurringDraft,
): { ok: true; data: RecurringValues } | { ok: false; errors: DraftErrors<RecurringField> } {
  const result = recurringChargeFieldsSchema.safeParse(
    {
      auto_code: draft.code?.id,
      description: draft.description,
      rate: draft.rate.trim(),
      quantity: draft.quantity.trim() === "" ? undefined : draft.quantity.trim(),
      start_month: draft.start_month,
      end_month: draft.end_month,
      frequency: draft.frequency,
      arrears: draft.arrears,
      unitofmeasure: draft.unitofmeasure,
      start_date: draft.start_date.trim() === "" ? null : draft.start_date.trim(),
    },
    { error: drfErrorMap },
  );
  if (!result.success) {
    return {
      ok: false,
      errors: issuesToErrors<RecurringField>(result.error.issues, { auto_code: "code" }),
    };
  }
  const data = result.data;
  return {
    ok: true,
    data: {
      auto_code: data.auto_code as number,
      description: data.description,
      rate: data.rate as string,
      quantity: data.quantity,
      start_month: data.start_month as number,
      end_month: data.end_month as number,
      frequency: data.frequency,
      arrears: data.arrears,
      unitofmeasure: data.unitofmeasure,
      start_date: data.start_date ?? null,
    },
  };
}

/** The body's parts in the server's names, mapped back to the form's field names. */
export function draftErrorsFromBody<K extends string>(
  body: unknown,
  fields: readonly K[],
  rename: Partial<Record<string, K>>,
): { errors: DraftErrors<K>; others: string[] } {
  const errors: DraftErrors<K> = {};
  const others: string[] = [];
  if (typeof body !== "object" || body === null) return { errors, others };
  for (const [key, value] of Object.entries(body)) {
    const messages = (Array.isArray(value) ? value : [value]).filter(
      (message): message is string => typeof message === "string",
    );
    const field = rename[key] ?? (key as K);
    if (fields.includes(field) && messages[0]) errors[field] = messages[0];
    else others.push(...messages);
  }
  return { errors, others };
}
