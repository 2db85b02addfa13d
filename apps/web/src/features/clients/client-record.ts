import type { ClientUpdateInput } from "@cyclebill/domain";

// The client as GET /api/clients/{id}/ returns it: every spec field under its spec name.

/** The messages printed on bills and shown to the client (text fields; the editor's Messages tab). */
export const CLIENT_MESSAGE_FIELDS = [
  "terms_message",
  "info_message",
  "bill_message_line_1",
  "bill_message_line_2",
  "bill_message_line_3",
  "bi_message",
  "client_message",
] as const;

/** Text fields (never null). */
export const CLIENT_TEXT_FIELDS = [
  "client_name",
  "address1",
  "address2",
  "address3",
  "city",
  "state",
  "zip",
  "zip4",
  "bus_phone",
  "fax_number",
  "cell_phone",
  "home_phone",
  "email",
  "business_owner",
  "primary_contact",
  "alternate_contact",
  "bluepay_account_id",
  "alternate_name",
  "alternate_address1",
  "alternate_address2",
  "alternate_address3",
  "alternate_city",
  "alternate_state",
  "alternate_zip",
  "alternate_bus_phone",
  "alternate_address_flag",
  "business_type",
  "sic_code",
  "business_form",
  "license",
  "corporate_name",
  "pull_explanation",
  ...CLIENT_MESSAGE_FIELDS,
  "status_code",
  "inactive_flag",
  "finance_flag",
  "thirtyDayRateOrPercent",
  "sixtyDayRateOrPercent",
  "ninetyDayRateOrPercent",
  "code_set",
  "bill_criteria",
  "bill_fulfilment",
  "process_type",
] as const;

/** Whole numbers. */
export const CLIENT_INTEGER_FIELDS = [
  "client_no",
  "pull_duration",
  "due_days",
  "normal_cycle",
  "fiscal_year_reset_month",
  "number_emailed_bills",
  "number_credit_card_bills",
  "number_pulled_bills",
  "number_mailed_bills",
  "number_bill_overflows",
] as const;

/** Decimal strings that always have a value (the provider's rates). */
export const CLIENT_DECIMAL_FIELDS = [
  "emailed_bill_rate",
  "credit_card_bill_rate",
  "pulled_bill_rate",
  "mailed_bill_rate",
  "overflow_bill_rate",
  "discounts",
  "basic_fee",
  "account_rate",
] as const;

/** Decimal strings that may be empty (late fees apply only when filled). */
export const CLIENT_OPTIONAL_DECIMAL_FIELDS = [
  "finance_rate_30_day",
  "day_finance_rate_60_day",
  "day_finance_rate_90_day",
  "day_charge_30_day",
  "day_charge_60_day",
  "day_charge_90_day",
] as const;

/** Choices that may be unset (null; "" in the form). */
export const CLIENT_OPTIONAL_CHOICE_FIELDS = ["gateway_hash_type"] as const;

/** ISO dates (YYYY-MM-DD) that may be empty. */
export const CLIENT_DATE_FIELDS = ["client_start_date", "permission_to_ref_date"] as const;

export type ClientTextField = (typeof CLIENT_TEXT_FIELDS)[number];
export type ClientIntegerField = (typeof CLIENT_INTEGER_FIELDS)[number];
export type ClientDecimalField = (typeof CLIENT_DECIMAL_FIELDS)[number];
export type ClientOptionalDecimalField = (typeof CLIENT_OPTIONAL_DECIMAL_FIELDS)[number];
export type ClientDateField = (typeof CLIENT_DATE_FIELDS)[number];
export type ClientOptionalChoiceField = (typeof CLIENT_OPTIONAL_CHOICE_FIELDS)[number];

/** Every field the editor sends back (PUT, full body). */
export type ClientEditableField =
  | ClientTextField
  | ClientIntegerField
  | ClientDecimalField
  | ClientOptionalDecimalField
  | ClientDateField
  | ClientOptionalChoiceField;

export type ClientRecord = { id: number; has_blue_pay_key: boolean } & Record<ClientTextField, string> &
  Record<ClientIntegerField, number> &
  Record<ClientDecimalField, string> &
  Record<ClientOptionalDecimalField, string | null> &
  Record<ClientDateField, string | null> &
  Record<ClientOptionalChoiceField, string | null> & {
    // Kept by the production run; shown, never sent.
    cycle_ran: boolean;
    days_in_last_cycle: number;
    date_first_billing: string | null;
    date_last_billing: string | null;
    date_this_billing: string | null;
    number_bills_sent_ytd: number;
    number_bi_sent_ytd: number;
  };

/** The editor's state: every editable field as the text in its input, plus the write-only key fields. */
export type ClientFormValues = Record<ClientEditableField, string> & {
  bluepay_secret_key: string;
  clear_blue_pay_key: boolean;
};

export function toFormValues(record: ClientRecord): ClientFormValues {
  const values: Partial<Record<ClientEditableField, string>> = {};
  for (const field of CLIENT_TEXT_FIELDS) values[field] = record[field] ?? "";
  for (const field of CLIENT_INTEGER_FIELDS)
    values[field] = record[field] === null ? "" : String(record[field]);
  for (const field of CLIENT_DECIMAL_FIELDS) values[field] = record[field] ?? "";
  for (const field of CLIENT_OPTIONAL_DECIMAL_FIELDS) values[field] = record[field] ?? "";
  for (const field of CLIENT_DATE_FIELDS) values[field] = record[field] ?? "";
  for (const field of CLIENT_OPTIONAL_CHOICE_FIELDS) values[field] = record[field] ?? "";
  return {
    ...(values as Record<ClientEditableField, string>),
    bluepay_secret_key: "",
    clear_blue_pay_key: false,
  };
}

/** The PUT body before validation: empty optional amounts and dates become null, numbers numbers. */
export function toUpdateBody(values: ClientFormValues): Record<keyof ClientUpdateInput, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of CLIENT_TEXT_FIELDS) body[field] = values[field];
  for (const field of CLIENT_INTEGER_FIELDS) {
    const text = values[field].trim();
    // Anything but digits goes as typed, so validation names the field.
    body[field] = /^\d{1,15}$/.test(text) ? Number(text) : text;
  }
  for (const field of CLIENT_DECIMAL_FIELDS) body[field] = values[field].trim();
  for (const field of CLIENT_OPTIONAL_DECIMAL_FIELDS) {
    const text = values[field].trim();
    body[field] = text === "" ? null : text;
  }
  for (const field of CLIENT_DATE_FIELDS) body[field] = values[field].trim() === "" ? null : values[field];
  for (const field of CLIENT_OPTIONAL_CHOICE_FIELDS)
    body[field] = values[field] === "" ? null : values[field];
  const secret = values.bluepay_secret_key.trim();
  if (secret !== "") body.bluepay_secret_key = secret;
  if (values.clear_blue_pay_key && secret === "") body.clear_blue_pay_key = true;
  return body as Record<keyof ClientUpdateInput, unknown>;
}
