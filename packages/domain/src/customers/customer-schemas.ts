import { z } from "zod";
import { integerParam } from "../api/list-query.js";
import { documentedAs, onTheWire } from "../api/wire-schema.js";
import {
  optionalEmailField,
  optionalStateField,
  optionalZipField,
  phoneField,
  multiLineText,
  trimmedText,
} from "../api/field-schemas.js";
import { calendarDate } from "../calendar/calendar-date.js";
import { quantitySchema, rateSchema } from "../money/money-schemas.js";
import { RECURRING_FREQUENCIES } from "../recurring/recurring-schedule.js";
import {
  BI_PULL_FLAGS,
  CUSTOMER_FINANCE_FLAGS,
  ADDRESS_INVALID_MESSAGE,
  EMAIL_REQUIRED_MESSAGE,
  NAME_REQUIRED_MESSAGE,
  NAME_REQUIRED_ON_UPDATE_MESSAGE,
  PULL_EXPLANATIONS_FOR_CUSTOMERS,
  PULL_FLAGS,
  RECURRING_REQUIRED_MESSAGE,
  STORED_AMOUNT_REQUIRED_MESSAGE,
  STORED_DESCRIPTION_TOO_LONG,
  TAX_STATUSES,
  deriveBiPullFlag,
  mailingAddressProblems,
  needsEmail,
} from "./customer-rules.js";

const text = trimmedText;
const phone = phoneField({ allowNoPhone: true });
const optionalZip = optionalZipField();
const optionalState = optionalStateField();
const propertyState = onTheWire(
  z
    .string()
    .trim()
    .toUpperCase()
    .refine((value) => value === "" || /^[A-Z]{2}$/.test(value), "Use the two-letter state abbreviation."),
  { type: "string", pattern: "^([A-Za-z]{2})?$" },
);
const isoDate = calendarDate();

export const customerFieldsSchema = z.object({
  customer_no: integerParam({ min: 1, max: 999_999_999 }).optional(),
  first_name: text(80).default(""),
  last_name: text(80).default(""),
  company_name: text(120).default(""),
  phone1: phone.default(""),
  phone2: phone.default(""),
  phone3: phone.default(""),
  email: optionalEmailField().default(""),
  address1: text(120).default(""),
  address2: text(120).default(""),
  address3: text(120).default(""),
  city: text(80).default(""),
  state: optionalState.default(""),
  zip: optionalZip.default(""),
  property_address1: text(120).default(""),
  property_address2: text(120).default(""),
  property_address3: text(120).default(""),
  property_city: text(80).default(""),
  property_state: propertyState.default(""),
  property_zip: optionalZip.default(""),
  pull_flag: z.enum(PULL_FLAGS).default("A"),
  pull_explanation: z.enum(PULL_EXPLANATIONS_FOR_CUSTOMERS).default("0"),
  /** Derived from pull_flag when not given. */
  bi_pull_flag: z.union([z.enum(BI_PULL_FLAGS), z.literal("")]).optional(),
  finance_flag: z.enum(CUSTOMER_FINANCE_FLAGS).default("C"),
  autopay_flag: z.boolean().default(false),
  tax_status: z.enum(TAX_STATUSES).default("T"),
  message: multiLineText(2000).default(""),
  message_duration: integerParam({ min: 0, max: 120 }).default(0),
  message_internal: multiLineText(2000).default(""),
  message_field: multiLineText(2000).default(""),
  open_date: isoDate.optional(),
});

function withCustomerRules<T extends z.ZodType<z.output<typeof customerFieldsSchema>>>(
  schema: T,
  nameMessage: string,
) {
  return schema
    .transform((customer) => ({
      ...customer,
      bi_pull_flag: customer.bi_pull_flag || deriveBiPullFlag(customer.pull_flag),
    }))
    .superRefine((customer, context) => {
      if (!customer.first_name && !customer.last_name && !customer.company_name) {
        context.addIssue({ code: "custom", message: nameMessage, path: [] });
      }
      if (needsEmail(customer.pull_flag, customer.bi_pull_flag) && !customer.email) {
        context.addIssue({ code: "custom", message: EMAIL_REQUIRED_MESSAGE, path: ["email"] });
      }
      const address = Object.entries(mailingAddressProblems(customer));
      for (const [field, message] of address) context.addIssue({ code: "custom", message, path: [field] });
      if (address.length > 0)
        context.addIssue({ code: "custom", message: ADDRESS_INVALID_MESSAGE, path: [] });
    });
}

/** Add Customer, and PUT (full body) of the customer editor. */
export const customerInputSchema = withCustomerRules(customerFieldsSchema, NAME_REQUIRED_MESSAGE);
export type CustomerInput = z.input<typeof customerInputSchema>;
/** The customer editor's save words the name rule slightly differently, as the spec does. */
export const customerUpdateSchema = withCustomerRules(customerFieldsSchema, NAME_REQUIRED_ON_UPDATE_MESSAGE);
export type CustomerValues = z.output<typeof customerInputSchema>;

const codeId = integerParam({ min: 1 });

/** A stored amount: the default code, description, rate and quantity offered when entering a transaction. */
export const storedAmountFieldsSchema = z.object({
  storedCode: z
    .union([codeId, z.undefined()])
    .refine((value) => value !== undefined, STORED_AMOUNT_REQUIRED_MESSAGE),
  description: z.string().trim().max(60, STORED_DESCRIPTION_TOO_LONG).default(""),
  rate: documentedAs(
    rateSchema,
    z
      .unknown()
      .refine(
        (value) => value !== undefined && value !== null && value !== "",
        STORED_AMOUNT_REQUIRED_MESSAGE,
      )
      .pipe(rateSchema),
  ),
  quantity: quantitySchema.default("1"),
  unitofmeasure: integerParam({ min: 1 }).default(1),
});
export const storedAmountInputSchema = storedAmountFieldsSchema.extend({
  customer: integerParam({ min: 1 }),
});

const month = integerParam({ min: 1, max: 12 });
const required = <T extends z.ZodType>(schema: T) =>
  documentedAs(
    schema,
    z
      .unknown()
      .refine((value) => value !== undefined && value !== null && value !== "", RECURRING_REQUIRED_MESSAGE)
      .pipe(schema),
  );

/** A recurring charge ("auto amount"). Quantity is a whole number; the amount is rate × quantity. */
export const recurringChargeFieldsSchema = z.object({
  auto_code: required(codeId),
  description: z.string().trim().max(60, STORED_DESCRIPTION_TOO_LONG).default(""),
  rate: required(rateSchema),
  quantity: integerParam({ min: 1, max: 1_000_000 }).default(1),
  start_month: required(month),
  end_month: required(month),
  frequency: z.enum(RECURRING_FREQUENCIES).default("monthly"),
  arrears: z.boolean().default(false),
  unitofmeasure: integerParam({ min: 1 }).default(1),
  /** The first day it may bill; null (or left out on create) bills from the day it is entered. */
  start_date: calendarDate().nullable().optional(),
});
export const recurringChargeInputSchema = recurringChargeFieldsSchema.extend({
  customer: integerParam({ min: 1 }),
});

/** POST /api/customers/full-create/: the customer with its recurring charges, stored amounts and groups. */
export const DELETE_FLAG_INPUT = z.object({ delete_flag: z.enum(["D", "S"]).nullable() });

export const customerFullCreateSchema = z.object({
  customer: customerInputSchema,
  recurring_charges: z.array(recurringChargeFieldsSchema).max(100).default([]),
  stored_amounts: z.array(storedAmountFieldsSchema).max(100).default([]),
  group_ids: z
    .array(integerParam({ min: 1 }))
    .max(100)
    .default([]),
});
