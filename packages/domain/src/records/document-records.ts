import { z } from "zod";
import { statementEmailSchema } from "./pool-records.js";
import { amountString, dateString, timestampString } from "../api/page-schema.js";
import { CODE_TYPES } from "../codes/code-types.js";
import { INVOICE_STATUSES } from "../invoices/invoice-rules.js";
import { INVOICE_ACTIONS, STATEMENT_ACTIONS } from "../ledger/entry-actions.js";
import { TRANSACTION_STATUSES, TRANSACTION_TYPES, entryContentFields } from "./transaction-records.js";

const invoiceStatus = z.enum(INVOICE_STATUSES);

/** An invoice as the lists and the edit screen read it; `document` tells it from a statement row. */
export const invoiceRecordSchema = z.object({
  id: z.number().int(),
  document: z.literal("invoice"),
  invoice_num: z.number().int(),
  invoice_status: invoiceStatus,
  invoice_date: dateString,
  invoiceDate: dateString,
  customer: z.object({ id: z.number().int(), customer_name: z.string(), customer_no: z.number().int() }),
  customer_id: z.number().int(),
  customer_name: z.string(),
  customer_no: z.number().int(),
  client: z.number().int(),
  client_id: z.number().int(),
  statement: z.number().int().nullable(),
  statement_id: z.number().int().nullable(),
  /** Sum of its transactions' signed ledger amounts (voided lines count for nothing). */
  total: amountString,
  transaction_count: z.number().int(),
  created: timestampString,
  closed_at: timestampString.nullable(),
  processed_at: timestampString.nullable(),
  /** Every action the server accepts on the invoice now (the screens offer exactly these). */
  actions: z.array(z.enum(INVOICE_ACTIONS)),
});
export type InvoiceRecord = z.output<typeof invoiceRecordSchema>;

/** A ledger entry as an invoice or statement lists it. */
export const ledgerLineSchema = z.object({
  id: z.number().int(),
  code: z.number().int(),
  displayCode: z.number().int(),
  code_type: z.enum(CODE_TYPES),
  ...entryContentFields,
  transaction_status: z.enum(TRANSACTION_STATUSES),
  transaction_type: z.enum(TRANSACTION_TYPES),
  voided: z.boolean(),
  invoice: z.number().int().nullable(),
  statement: z.number().int().nullable(),
});
export type LedgerLine = z.output<typeof ledgerLineSchema>;

/** GET /api/invoices/{id}/: the invoice with the entries on it. */
export const invoiceDetailSchema = invoiceRecordSchema.extend({ transactions: z.array(ledgerLineSchema) });
export type InvoiceDetail = z.output<typeof invoiceDetailSchema>;

export const STATEMENT_DELIVERIES = ["mail", "email", "both", "bulk", "pulled"] as const;

/**
 * A statement row. The combined Invoices and Statements table reads invoice_date (its
 * statement_date), customer_id and invoice_num (its statement_num) from every row alike.
 */
export const statementRecordSchema = z.object({
  id: z.number().int(),
  document: z.literal("statement"),
  statement_num: z.number().int(),
  invoice_num: z.number().int(),
  statement_date: dateString,
  invoice_date: dateString,
  created: timestampString,
  customer: z.number().int(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  customer_no: z.number().int(),
  client: z.number().int(),
  client_id: z.number().int(),
  invoice_status: invoiceStatus,
  delivery: z.enum(STATEMENT_DELIVERIES),
  pool: z.number().int().nullable(),
  production_run: z.number().int().nullable(),
  /** Pages it printed on, once drawn into its pool or email. */
  pages: z.number().int().nullable(),
  /** Its email delivery, when it goes by email: queued, sending, sent, or failed with the reason. */
  email: statementEmailSchema.nullable(),
  previous_balance: amountString,
  charges: amountString,
  payments: amountString,
  credit_adjustments: amountString,
  debit_adjustments: amountString,
  late_fees: amountString,
  new_balance: amountString,
  current_balance: amountString,
  overdue_30_days: amountString,
  overdue_60_days: amountString,
  overdue_90_days: amountString,
  overdue_over_90_days: amountString,
  /** 1 as issued; a corrected statement is its original's version + 1, with the same number. */
  version: z.number().int(),
  /** The corrected version that replaced this one (kept as it was sent); null: the current version. */
  replaced_by: z.number().int().nullable(),
  /** The day a corrected version was issued ("Corrected" on its PDF); null on a first version. */
  corrected_on: dateString.nullable(),
  /** Whether it proves itself now (the doctor's rules); false after its period was reopened and changed. */
  proves: z.boolean(),
  /** A reprint of it waits for the client's next print pool. */
  queued_for_pool: z.boolean(),
  /** Every action the server accepts on the statement now (the screens offer exactly these). */
  actions: z.array(z.enum(STATEMENT_ACTIONS)),
});
export type StatementRecord = z.output<typeof statementRecordSchema>;

/** A statement sent again on its own: by email (one per press) or queued for the next print pool. */
export const statementResendSchema = z.object({
  id: z.number().int(),
  statement_id: z.number().int(),
  channel: z.enum(["email", "pool"]),
  /** email: queued, sending, sent or failed; pool: queued until a pool takes it, then sent. */
  status: z.enum(["queued", "sending", "sent", "failed"]),
  recipient: z.string(),
  pool: z.number().int().nullable(),
  error: z.string().nullable(),
  created: timestampString,
  sent: timestampString.nullable(),
});
export type StatementResend = z.output<typeof statementResendSchema>;

/** GET /api/statements/{id}/: the statement with the entries and invoices it carried. */
export const statementDetailSchema = statementRecordSchema.extend({
  /** Its resends, newest first. */
  resends: z.array(statementResendSchema),
  transactions: z.array(ledgerLineSchema),
  invoices: z.array(
    z.object({ id: z.number().int(), invoice_num: z.number().int(), invoice_date: dateString }),
  ),
});
export type StatementDetail = z.output<typeof statementDetailSchema>;
