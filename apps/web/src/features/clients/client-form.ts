import { CLIENT_RATE_FIELDS, isProviderOnlyClientField, type ClientUpdateInput } from "@cyclebill/domain";
import { useState, type ChangeEvent } from "react";
import type { FieldErrors } from "../auth/form-validation";
import type { ClientEditableField, ClientFormValues, ClientRecord } from "./client-record";
import { CLIENT_MESSAGE_FIELDS, toFormValues } from "./client-record";

export type ClientField = keyof ClientUpdateInput;

/** Select options cannot have an empty value, so a field's "" (none) is this option. */
export const EMPTY_OPTION = "__none";

/** Options for a Select from a code list and its labels; "" becomes EMPTY_OPTION. */
export function selectOptions<T extends string>(
  codes: readonly T[],
  label: (code: T) => string,
): { value: string; label: string }[] {
  return codes.map((code) => ({ value: code === "" ? EMPTY_OPTION : code, label: label(code) }));
}
export type ClientTab = "overview" | "message" | "status" | "rates" | "users" | "history";

export const CLIENT_TAB_LABELS: Record<ClientTab, string> = {
  overview: "Overview",
  message: "Message",
  status: "Status",
  rates: "Rates",
  users: "User Management",
  history: "History",
};

const MESSAGE_FIELDS: readonly ClientField[] = [...CLIENT_MESSAGE_FIELDS, "due_days"];

const STATUS_FIELDS: readonly ClientField[] = [
  "status_code",
  "inactive_flag",
  "normal_cycle",
  "fiscal_year_reset_month",
  "client_start_date",
  "permission_to_ref_date",
  "finance_flag",
  "thirtyDayRateOrPercent",
  "sixtyDayRateOrPercent",
  "ninetyDayRateOrPercent",
  "finance_rate_30_day",
  "day_finance_rate_60_day",
  "day_finance_rate_90_day",
  "day_charge_30_day",
  "day_charge_60_day",
  "day_charge_90_day",
  "bill_criteria",
  "bill_fulfilment",
  "process_type",
  "code_set",
  "pull_duration",
  "pull_explanation",
];

const RATE_FIELDS: readonly string[] = CLIENT_RATE_FIELDS;

/** The tab that shows a field, so a failed save can point at it. */
export function tabOfField(field: string): ClientTab {
  if (RATE_FIELDS.includes(field)) return "rates";
  if ((MESSAGE_FIELDS as readonly string[]).includes(field)) return "message";
  if ((STATUS_FIELDS as readonly string[]).includes(field)) return "status";
  return "overview";
}

export function isRateField(field: string): boolean {
  return RATE_FIELDS.includes(field);
}

export type ClientFormAccess = {
  /** Owners and admins edit; staff only read. */
  canEdit: boolean;
  /** Rates: admins only. */
  canEditRates: boolean;
  /** Admins edit the provider-only fields (number, status, cycle, production, gateway) and see the bulk pull fields. */
  isAdmin: boolean;
};

export type ClientForm = {
  values: ClientFormValues;
  errors: FieldErrors<ClientField>;
  access: ClientFormAccess;
  set: <K extends keyof ClientFormValues>(field: K, value: ClientFormValues[K]) => void;
  isReadOnly: (field: ClientEditableField | "bluepay_secret_key") => boolean;
  /** value/onChange/error/readOnly for a text input bound to a field. */
  text: (field: ClientEditableField) => {
    value: string;
    error: string | undefined;
    readOnly: boolean;
    variant: "default" | "filled";
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  };
  /** value/onChange/error/readOnly for a Select bound to a field ("" is no choice). */
  select: (field: ClientEditableField) => {
    value: string | null;
    error: string | undefined;
    readOnly: boolean;
    variant: "default" | "filled";
    onChange: (value: string | null) => void;
  };
  setErrors: (errors: FieldErrors<ClientField>) => void;
  reset: (record: ClientRecord) => void;
};

export function useClientForm(record: ClientRecord, access: ClientFormAccess): ClientForm {
  const [values, setValues] = useState<ClientFormValues>(() => toFormValues(record));
  const [errors, setErrors] = useState<FieldErrors<ClientField>>({});

  const set = <K extends keyof ClientFormValues>(field: K, value: ClientFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    // A field the user changes loses its old message; the next save judges it again.
    setErrors((current) => {
      if (!(field in current)) return current;
      const next = { ...current };
      delete next[field as ClientField];
      return next;
    });
  };

  const isReadOnly = (field: ClientEditableField | "bluepay_secret_key") => {
    if (!access.canEdit) return true;
    if (isRateField(field)) return !access.canEditRates;
    // The server refuses a non-admin's change to these (one list in the domain package).
    if (isProviderOnlyClientField(field)) return !access.isAdmin;
    return false;
  };

  const text: ClientForm["text"] = (field) => ({
    value: values[field],
    error: errors[field],
    readOnly: isReadOnly(field),
    variant: isReadOnly(field) ? "filled" : "default",
    onChange: (event) => set(field, event.currentTarget.value),
  });

  const select: ClientForm["select"] = (field) => ({
    value: values[field] === "" ? EMPTY_OPTION : values[field],
    error: errors[field],
    readOnly: isReadOnly(field),
    variant: isReadOnly(field) ? "filled" : "default",
    onChange: (value) => set(field, value === null || value === EMPTY_OPTION ? "" : value),
  });

  const reset = (next: ClientRecord) => {
    setValues(toFormValues(next));
    setErrors({});
  };

  return { values, errors, access, set, isReadOnly, text, select, setErrors, reset };
}
