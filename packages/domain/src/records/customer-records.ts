import { z } from "zod";
import { amountString, dateString, timestampString } from "../api/page-schema.js";
import { CUSTOMER_ACTIONS } from "../customers/customer-actions.js";
import { DELETE_FLAGS, type ArchiveState, type DeleteFlag } from "../customers/customer-rules.js";

const ARCHIVE_STATES = [
  "active",
  "delete-when-zero",
  "delete-when-zero-keep-billing",
  "archived",
] as const satisfies readonly ArchiveState[];

/** How every customer record names its customer: number, display name and the name's parts. */
export const customerNameFields = {
  customer_no: z.number().int(),
  customer_name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  company_name: z.string(),
};

/** A customer as GET /api/customers/{id}/ returns it (and every write of one answers with it). */
export const customerRecordSchema = z.object({
  id: z.number().int(),
  client: z.number().int(),
  client_id: z.number().int(),
  ...customerNameFields,
  phone1: z.string(),
  phone2: z.string(),
  phone3: z.string(),
  email: z.string(),
  address1: z.string(),
  address2: z.string(),
  address3: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  property_address1: z.string(),
  property_address2: z.string(),
  property_address3: z.string(),
  property_city: z.string(),
  property_state: z.string(),
  property_zip: z.string(),
  pull_flag: z.string(),
  pull_explanation: z.string(),
  bi_pull_flag: z.string(),
  finance_flag: z.string(),
  autopay_flag: z.boolean(),
  tax_status: z.string(),
  message: z.string(),
  message_duration: z.number().int(),
  message_internal: z.string(),
  message_field: z.string(),
  bluepay_transaction_id: z.string(),
  bluepay_transaction_message: z.string(),
  delete_flag: z.enum(DELETE_FLAGS).nullable(),
  deleted: z.boolean(),
  archive_state: z.enum(ARCHIVE_STATES),
  /** What the server accepts on its archive state now: the screens offer exactly these. */
  actions: z.array(z.enum(CUSTOMER_ACTIONS)),
  open_date: dateString,
  last_pay_date: dateString.nullable(),
  total_balance: amountString,
  /** The same figure as total_balance, under the name the old screens read. */
  balance: amountString,
  previous_balance: amountString,
  mtd_charges: amountString,
  mtd_payments: amountString,
  mtd_cr_adj: amountString,
  mtd_db_adj: amountString,
  overdue_30_days: amountString,
  overdue_60_days: amountString,
  overdue_90_days: amountString,
  overdue_over_90_days: amountString,
  current_balance: amountString,
  created_at: timestampString,
});
export type CustomerRecord = z.output<typeof customerRecordSchema>;

/** A row of the Manage Customers list: the record plus columns computed from the ledger. */
export const customerListRowSchema = customerRecordSchema.extend({
  current_charges: amountString,
  current_payments_credits: amountString,
  contract_balance: amountString,
  adjusted_total_balance: amountString,
  mtdCharges: amountString,
  mtdCRAdjust: amountString,
  mtdDebitAdjust: amountString,
  lastChargeAmount: amountString.nullable(),
  lastChargeDate: dateString.nullable(),
  lastPaymentAmount: amountString.nullable(),
  lastPaymentDate: dateString.nullable(),
  lastCreditAmount: amountString.nullable(),
  lastCreditDate: dateString.nullable(),
});
export type CustomerListRow = z.output<typeof customerListRowSchema>;

/** GET /api/summary-data/customer/{id}: the customer's Status tab. */
export const customerSummarySchema = z.object({
  customer_id: z.number().int(),
  open_date: dateString.nullable(),
  last_pay_date: dateString.nullable(),
  balance: amountString,
  previous_balance: amountString,
  current_balance: amountString,
  overdue_30_days: amountString,
  overdue_60_days: amountString,
  overdue_90_days: amountString,
  overdue_over_90_days: amountString,
  current_charges: amountString,
  currentCharges: amountString,
  ytdCharges: amountString,
  charges_last_yr: amountString,
  last_charge_date: dateString.nullable(),
  /** The latest charge's amount (latest by service date, then entry). */
  last_charge_amount: amountString.nullable(),
  current_payments: amountString,
  currentPayments: amountString,
  ytdPayments: amountString,
  payments_last_yr: amountString,
  last_pay_date_1: dateString.nullable(),
  last_pay_date_2: dateString.nullable(),
  last_pay_date_3: dateString.nullable(),
  last_pay_date_4: dateString.nullable(),
  /** The latest payment's amount, paid on last_pay_date_1. */
  last_pay_amount: amountString.nullable(),
  currentCreditAdjustment: amountString,
  ytdCreditAdjustment: amountString,
  last_year_credits: amountString,
  last_credit_amount: amountString.nullable(),
  last_cr_adj_date: dateString.nullable(),
  currentDebitAdjustment: amountString,
  ytdDebitAdjustment: amountString,
  last_year_db_adj: amountString,
  last_debit_amount: amountString.nullable(),
  last_db_adj_date: dateString.nullable(),
  unprocessedBalance: amountString,
  tax: amountString,
});
export type CustomerSummary = z.output<typeof customerSummarySchema>;

/** Customer Select: a typeahead match. */
export const customerMatchSchema = z.object({
  id: z.number().int(),
  ...customerNameFields,
});
export type CustomerMatch = z.output<typeof customerMatchSchema>;

/** The stored delete flag as the API names it; anything else stored reads as no flag. */
export function toDeleteFlag(stored: string | null): DeleteFlag | null {
  return DELETE_FLAGS.find((flag) => flag === stored) ?? null;
}
