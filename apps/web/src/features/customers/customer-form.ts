import {
  ADDRESS_INVALID_MESSAGE,
  mailingAddressProblems,
  EMAIL_REQUIRED_MESSAGE,
  NAME_REQUIRED_MESSAGE,
  NO_PHONE,
  NAME_REQUIRED_ON_UPDATE_MESSAGE,
  customerFieldsSchema,
  customerInputSchema,
  customerUpdateSchema,
  deriveBiPullFlag,
  drfErrorMap,
  needsEmail,
  type CustomerValues,
  type PullFlag,
} from "@cyclebill/domain";
import type { CustomerRecord } from "@cyclebill/domain";

/** The editable customer fields: the shared input schema's keys. */
export type CustomerField = keyof typeof customerFieldsSchema.shape;
/** Every editable customer field as the form holds it: text, except the autopay switch. */
export type CustomerFormValues = { [K in CustomerField]: K extends "autopay_flag" ? boolean : string };
export type CustomerFieldErrors = Partial<Record<CustomerField, string>>;

export const MAILING_ADDRESS_FIELDS = ["address1", "address2", "address3", "city", "state", "zip"] as const;
export const PROPERTY_ADDRESS_FIELDS = [
  "property_address1",
  "property_address2",
  "property_address3",
  "property_city",
  "property_state",
  "property_zip",
] as const;
const ADDRESS_FIELDS: readonly CustomerField[] = [...MAILING_ADDRESS_FIELDS, ...PROPERTY_ADDRESS_FIELDS];

export { ADDRESS_LINE_REQUIRED_MESSAGE } from "@cyclebill/domain";

/** The spec's defaults: statement flag A (mail), invoice flag M (derived), finance flag C, taxable. */
export function emptyCustomerValues(): CustomerFormValues {
  return {
    customer_no: "",
    first_name: "",
    last_name: "",
    company_name: "",
    phone1: "",
    phone2: "",
    phone3: "",
    email: "",
    address1: "",
    address2: "",
    address3: "",
    city: "",
    state: "",
    zip: "",
    property_address1: "",
    property_address2: "",
    property_address3: "",
    property_city: "",
    property_state: "",
    property_zip: "",
    pull_flag: "A",
    pull_explanation: "0",
    bi_pull_flag: deriveBiPullFlag("A"),
    finance_flag: "C",
    autopay_flag: false,
    tax_status: "T",
    message: "",
    message_duration: "0",
    message_internal: "",
    message_field: "",
    open_date: "",
  };
}

/** The spec shows the phone 0000000000 as empty. */
export function displayPhone(phone: string | null | undefined): string {
  return !phone || phone === NO_PHONE ? "" : phone;
}

const PHONE_FIELDS = ["phone1", "phone2", "phone3"] as const;

/**
 * The body to save: a phone stored as the spec's "no phone" 0000000000 shows empty, and left empty it
 * stays 0000000000 (the save changes only what the user changed; it used to store "" instead).
 */
export function keepStoredNoPhone(data: CustomerValues, record: CustomerRecord): CustomerValues {
  const kept = { ...data };
  for (const field of PHONE_FIELDS) {
    if (record[field] === NO_PHONE && kept[field] === "") kept[field] = NO_PHONE;
  }
  return kept;
}

export function valuesFromRecord(record: CustomerRecord): CustomerFormValues {
  return {
    customer_no: String(record.customer_no),
    first_name: record.first_name,
    last_name: record.last_name,
    company_name: record.company_name,
    phone1: displayPhone(record.phone1),
    phone2: displayPhone(record.phone2),
    phone3: displayPhone(record.phone3),
    email: record.email,
    address1: record.address1,
    address2: record.address2,
    address3: record.address3,
    city: record.city,
    state: record.state,
    zip: record.zip,
    property_address1: record.property_address1,
    property_address2: record.property_address2,
    property_address3: record.property_address3,
    property_city: record.property_city,
    property_state: record.property_state,
    property_zip: record.property_zip,
    pull_flag: record.pull_flag,
    pull_explanation: record.pull_explanation || "0",
    bi_pull_flag: record.bi_pull_flag || deriveBiPullFlag(record.pull_flag as PullFlag),
    finance_flag: record.finance_flag,
    autopay_flag: record.autopay_flag,
    tax_status: record.tax_status,
    message: record.message,
    message_duration: String(record.message_duration),
    message_internal: record.message_internal,
    message_field: record.message_field,
    open_date: record.open_date ?? "",
  };
}

/** The request body before parsing: the form's text as the API takes it. */
function bodyOf(values: CustomerFormValues): Record<string, unknown> {
  const { customer_no, open_date, message_duration, ...rest } = values;
  return {
    ...rest,
    ...(customer_no.trim() === "" ? {} : { customer_no: customer_no.trim() }),
    ...(open_date === "" ? {} : { open_date }),
    message_duration: message_duration.trim() === "" ? "0" : message_duration.trim(),
  };
}

export type CustomerValidation =
  { ok: true; data: CustomerValues } | { ok: false; fieldErrors: CustomerFieldErrors; formErrors: string[] };

/**
 * Validates the Add Customer form (mode "add") or the editor (mode "edit") with the shared schema and
 * the spec's rules, reporting every problem at once: the name rule, the address rule and the email
 * rule as the spec's alerts, and each field's own message under it.
 */
export function validateCustomer(values: CustomerFormValues, mode: "add" | "edit"): CustomerValidation {
  const body = bodyOf(values);
  const fieldErrors: CustomerFieldErrors = {};
  const formErrors: string[] = [];
  const parsed = customerFieldsSchema.safeParse(body, { error: drfErrorMap });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (typeof field === "string" && field in values) fieldErrors[field as CustomerField] ??= issue.message;
    }
  }
  Object.assign(fieldErrors, { ...addressCompleteness(values), ...fieldErrors });

  // The rules the schema applies after the fields parse, checked here too so every message shows at once.
  const trimmed = (value: string) => value.trim();
  if (!trimmed(values.first_name) && !trimmed(values.last_name) && !trimmed(values.company_name)) {
    formErrors.push(mode === "add" ? NAME_REQUIRED_MESSAGE : NAME_REQUIRED_ON_UPDATE_MESSAGE);
  }
  const biPullFlag = values.bi_pull_flag || deriveBiPullFlag(values.pull_flag as PullFlag);
  if (needsEmail(values.pull_flag, biPullFlag) && !trimmed(values.email)) {
    fieldErrors.email ??= EMAIL_REQUIRED_MESSAGE;
  }
  if (ADDRESS_FIELDS.some((field) => fieldErrors[field])) formErrors.push(ADDRESS_INVALID_MESSAGE);
  if (fieldErrors.email === EMAIL_REQUIRED_MESSAGE) formErrors.push(EMAIL_REQUIRED_MESSAGE);

  if (formErrors.length > 0 || Object.keys(fieldErrors).length > 0) {
    return { ok: false, fieldErrors, formErrors };
  }
  const schema = mode === "add" ? customerInputSchema : customerUpdateSchema;
  const result = schema.safeParse(body, { error: drfErrorMap });
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, fieldErrors: {}, formErrors: result.error.issues.map((issue) => issue.message) };
}

/** The spec's address rule (line 1, city, state, 5-digit zip), the same rule the server applies. */
function addressCompleteness(values: CustomerFormValues): CustomerFieldErrors {
  return mailingAddressProblems(values);
}

/** The first message per known field of a 400 body ({field: [msg]}) plus the rest for the alert. */
export function serverErrors(body: unknown): { fieldErrors: CustomerFieldErrors; formErrors: string[] } {
  const fieldErrors: CustomerFieldErrors = {};
  const formErrors: string[] = [];
  const collect = (value: unknown): string[] =>
    typeof value === "string"
      ? [value]
      : Array.isArray(value)
        ? value.flatMap(collect)
        : typeof value === "object" && value !== null
          ? Object.values(value).flatMap(collect)
          : [];
  if (typeof body !== "object" || body === null) return { fieldErrors, formErrors };
  for (const [key, value] of Object.entries(body)) {
    const messages = collect(value);
    const target = key === "customer" && typeof value === "object" && value !== null ? value : null;
    if (target !== null && !Array.isArray(target)) {
      // full-create nests the customer's field errors under "customer".
      const nested = serverErrors(target);
      Object.assign(fieldErrors, nested.fieldErrors);
      formErrors.push(...nested.formErrors);
    } else if (key in emptyCustomerValues() && messages[0]) {
      fieldErrors[key as CustomerField] = messages[0];
    } else {
      formErrors.push(...messages);
    }
  }
  return { fieldErrors, formErrors };
}
