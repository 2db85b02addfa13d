import { z } from "zod";
import {
  ZIP_MESSAGE,
  optionalEmailField,
  optionalStateField,
  optionalZipField,
  phoneField,
  asOneLine,
  multiLineText,
  trimmedText,
} from "../api/field-schemas.js";
import { integerParam } from "../api/list-query.js";
import { onTheWire } from "../api/wire-schema.js";
import { calendarDate } from "../calendar/calendar-date.js";
import { amountSchema, nonNegativeAmountSchema } from "../money/money-schemas.js";
import { GATEWAY_HASH_TYPES } from "../payments/gateway-hash-types.js";
import { rateSchema } from "../money/money-schemas.js";
import { US_STATE_CODES } from "../reference/us-states.js";
import {
  ALTERNATE_ADDRESS_FLAGS,
  BILL_CRITERIA,
  BILL_FULFILMENT,
  CLIENT_FINANCE_FLAGS,
  CLIENT_STATUS_CODES,
  CYCLE_DAYS,
  INACTIVE_FLAGS,
  PROCESS_TYPES,
  PULL_EXPLANATIONS,
  RATE_OR_PERCENT,
} from "./client-rules.js";
import { auditReasonField } from "../audit/audit-records.js";

export const CLIENT_NAME_MIN = 3;
export const CITY_REQUIRED_MESSAGE = "City required";
export const STATE_REQUIRED_MESSAGE = "State required";
export const TERMS_MAX_MESSAGE = "Terms max length 20 characters";
const text = trimmedText;
const phone = phoneField();
const zip5 = z
  .string()
  .trim()
  .regex(/^\d{5}$/, ZIP_MESSAGE);
const optionalZip5 = optionalZipField();
const optionalState = optionalStateField();
const isoDate = calendarDate().nullable();
const count = integerParam({ min: 0, max: 1_000_000_000 });

/** Every editable client field but the name and the required address (they differ between add and edit). */
const clientDetailFields = {
  address2: text(120).default(""),
  address3: text(120).default(""),
  zip4: onTheWire(
    z
      .string()
      .trim()
      .refine((value) => value === "" || /^\d{4}$/.test(value), "Must be 4 digits"),
    { type: "string", pattern: "^(\\d{4})?$" },
  ).default(""),
  bus_phone: phone.default(""),
  fax_number: phone.default(""),
  cell_phone: phone.default(""),
  home_phone: phone.default(""),
  email: optionalEmailField().default(""),
  business_owner: text(120).default(""),
  primary_contact: text(120).default(""),
  alternate_contact: text(120).default(""),
  bluepay_account_id: text(64).default(""),
  /** Write-only: a new gateway secret replaces the stored one; empty keeps it. */
  bluepay_secret_key: z.string().trim().max(200).optional(),
  /** Write-only: removes the stored gateway secret. */
  clear_blue_pay_key: z.boolean().optional(),
  alternate_name: text(120).default(""),
  alternate_address1: text(120).default(""),
  alternate_address2: text(120).default(""),
  alternate_address3: text(120).default(""),
  alternate_city: text(80).default(""),
  alternate_state: optionalState.default(""),
  alternate_zip: optionalZip5.default(""),
  alternate_bus_phone: phone.default(""),
  alternate_address_flag: z.enum(ALTERNATE_ADDRESS_FLAGS).default(""),
  business_type: text(80).default(""),
  sic_code: text(10).default(""),
  business_form: text(80).default(""),
  license: text(80).default(""),
  corporate_name: text(120).default(""),
  pull_duration: count.default(0),
  pull_explanation: z.enum(PULL_EXPLANATIONS).default("0"),
  terms_message: z.string().trim().max(20, TERMS_MAX_MESSAGE).default(""),
  /** Days from a statement's date to its due date; 0 is due on receipt. */
  due_days: integerParam({ min: 0, max: 365 }).default(30),
  info_message: multiLineText(2000).default(""),
  bill_message_line_1: text(80).default(""),
  bill_message_line_2: text(80).default(""),
  bill_message_line_3: text(80).default(""),
  bi_message: multiLineText(2000).default(""),
  client_message: multiLineText(1000).default(""),
  normal_cycle: onTheWire(
    integerParam({ min: 1, max: 99 }).refine(
      (day) => CYCLE_DAYS.includes(day),
      "Cycle day must be 1 to 27, or 99.",
    ),
    { type: "integer", enum: CYCLE_DAYS },
  ).default(1),
  client_start_date: isoDate.default(null),
  permission_to_ref_date: isoDate.default(null),
  status_code: z.enum(CLIENT_STATUS_CODES).default("A"),
  inactive_flag: z.enum(INACTIVE_FLAGS).default(""),
  finance_flag: z.enum(CLIENT_FINANCE_FLAGS).default("N"),
  thirtyDayRateOrPercent: z.enum(RATE_OR_PERCENT).default("rate"),
  sixtyDayRateOrPercent: z.enum(RATE_OR_PERCENT).default("rate"),
  ninetyDayRateOrPercent: z.enum(RATE_OR_PERCENT).default("rate"),
  finance_rate_30_day: rateSchema.nullable().default(null),
  day_finance_rate_60_day: rateSchema.nullable().default(null),
  day_finance_rate_90_day: rateSchema.nullable().default(null),
  day_charge_30_day: amountSchema.nullable().default(null),
  day_charge_60_day: amountSchema.nullable().default(null),
  day_charge_90_day: amountSchema.nullable().default(null),
  code_set: text(20).default(""),
  fiscal_year_reset_month: integerParam({ min: 1, max: 12 }).default(1),
  bill_criteria: z.enum(BILL_CRITERIA).default("00"),
  bill_fulfilment: z.enum(BILL_FULFILMENT).default(""),
  process_type: z.enum(PROCESS_TYPES).default("00"),
  /** NACHA: present an ACH debit returned R01/R09 again (at most twice in 180 days); left as is when absent. */
  represent_ach_returns: z.boolean().optional(),
  /** Charged once per ACH entry returned R01/R09 (0: none); left as is when absent. */
  ach_return_fee: nonNegativeAmountSchema.optional(),
  /** Every user of the client must set up a second factor (provider admins only); left as is when absent. */
  require_second_factor: z.boolean().optional(),
};

/** Rates the provider charges the client: editable by admins only. */
export const clientRateFields = {
  emailed_bill_rate: rateSchema.default("0.00000"),
  credit_card_bill_rate: rateSchema.default("0.00000"),
  pulled_bill_rate: rateSchema.default("0.00000"),
  mailed_bill_rate: rateSchema.default("0.00000"),
  overflow_bill_rate: rateSchema.default("0.00000"),
  discounts: rateSchema.default("0.00000"),
  basic_fee: amountSchema.default("0.00"),
  account_rate: rateSchema.default("0.00000"),
  number_emailed_bills: count.default(0),
  number_credit_card_bills: count.default(0),
  number_pulled_bills: count.default(0),
  number_mailed_bills: count.default(0),
  number_bill_overflows: count.default(0),
  /** The seal hash the client's BluePay account expects (TPS_HASH_TYPE); null is HMAC_SHA512. */
  gateway_hash_type: z.enum(GATEWAY_HASH_TYPES).nullable().default(null),
};
export const CLIENT_RATE_FIELDS = Object.keys(clientRateFields) as (keyof typeof clientRateFields)[];

const clientName = z
  .string()
  .overwrite(asOneLine)
  .trim()
  .min(1)
  .min(CLIENT_NAME_MIN, `Ensure this field has at least ${CLIENT_NAME_MIN} characters.`)
  .max(120);

/** The Add Client dialog: a name is all it takes; the editor fills in the rest. */
export const clientCreateSchema = z.object({
  client_name: clientName,
  client_no: integerParam({ min: 1, max: 999_999_999 }).optional(),
  address1: text(120).default(""),
  city: text(80).default(""),
  state: optionalState.default(""),
  zip: optionalZip5.default(""),
  ...clientDetailFields,
  ...clientRateFields,
});
export type ClientCreateInput = z.input<typeof clientCreateSchema>;

type KeptWhenOmitted<T extends z.ZodRawShape> = {
  [K in keyof T]: z.ZodOptional<T[K] extends z.ZodDefault<infer Inner> ? Inner : T[K]>;
};

/**
 * The defaults are for creating a client. In an update a field left out keeps its stored value: a
 * default there would count as a change, and an owner's save that left out status_code was refused
 * 403 for changing a provider-only field (issue 40).
 */
function keptWhenOmitted<T extends z.ZodRawShape>(shape: T): KeptWhenOmitted<T> {
  const kept: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(shape))
    kept[key] = schema instanceof z.ZodDefault ? z.optional(schema.unwrap()) : z.optional(schema);
  return kept as KeptWhenOmitted<T>;
}

/** The client editor (PUT): the name and address must be complete; other fields left out stay as they are. */
export const clientUpdateSchema = z.object({
  client_name: clientName,
  client_no: integerParam({ min: 1, max: 999_999_999 }),
  address1: z.string().overwrite(asOneLine).trim().min(1, "Address line 1 required").max(120),
  city: z.string().overwrite(asOneLine).trim().min(1, CITY_REQUIRED_MESSAGE).max(80),
  state: onTheWire(
    z
      .string(STATE_REQUIRED_MESSAGE)
      .trim()
      .toUpperCase()
      .min(1, STATE_REQUIRED_MESSAGE)
      .refine((value) => value === "" || US_STATE_CODES.includes(value), "Select a state from the list."),
    { type: "string", enum: US_STATE_CODES },
  ),
  zip: zip5,
  ...keptWhenOmitted(clientDetailFields),
  ...keptWhenOmitted(clientRateFields),
});
export type ClientUpdateInput = z.input<typeof clientUpdateSchema>;
/** PUT /api/clients/{id}/: the editor's fields and, when a provider-only field changes, why. */
export const clientUpdateRequestSchema = clientUpdateSchema.extend({ change_reason: auditReasonField });
export type ClientUpdate = z.output<typeof clientUpdateSchema>;
