import { z } from "zod";
import { amountString, dateString, timestampString } from "../api/page-schema.js";
import { CODE_TYPES } from "../codes/code-types.js";
import { INVOICE_STATUSES } from "../invoices/invoice-rules.js";
import { ENTRY_ACTIONS } from "../ledger/entry-actions.js";

export const TRANSACTION_STATUSES = ["new", "attached"] as const;
export const TRANSACTION_TYPES = [
  "user_or_scanner",
  "route",
  "bulk",
  "voids_a_transaction",
  "invoice",
  // Posted by the production run.
  "recurring",
  "late_fee",
] as const;

/** What an entry says and when, as every list of entries shows it. */
export const entryContentFields = {
  description: z.string(),
  quantity: z.string().describe("decimal string"),
  rate: z.string().describe("decimal string, 5 places"),
  amount: amountString,
  /** The signed effect on the balance. */
  ledger_amount: amountString,
  serviceDate: dateString,
  created: timestampString,
};

/** One ledger entry as GET /api/transactions/ returns it, with what may still be done to it. */
export const transactionRecordSchema = z.object({
  id: z.number().int(),
  client: z.number().int(),
  customer: z.number().int(),
  customer_name: z.string(),
  customer_no: z.number().int(),
  code: z.number().int(),
  /** The code's number as the screens show it. */
  displayCode: z.number().int(),
  code_type: z.enum(CODE_TYPES),
  code_type_id: z.number().int(),
  ...entryContentFields,
  unitofmeasure: z.number().int().nullable(),
  uom: z.string().nullable(),
  transaction_status: z.enum(TRANSACTION_STATUSES),
  transaction_type: z.enum(TRANSACTION_TYPES),
  invoice: z.number().int().nullable(),
  invoice_num: z.number().int().nullable(),
  invoice_status: z.enum(INVOICE_STATUSES).nullable(),
  statement: z.number().int().nullable(),
  voided: z.boolean(),
  voids_transaction: z.number().int().nullable(),
  reverses_transaction: z.number().int().nullable(),
  reversed_by: z.number().int().nullable(),
  stored_amount_flag: z.boolean(),
  /** The gateway's TRANS_ID of a card or ACH payment entry; null for everything else. */
  gateway_trans_id: z.string().nullable(),
  editable: z.boolean(),
  voidable: z.boolean(),
  void_deletable: z.boolean(),
  reversible: z.boolean(),
  /** Every action the server accepts on the entry now (the screens offer exactly these). */
  actions: z.array(z.enum(ENTRY_ACTIONS)),
});
export type TransactionRecord = z.output<typeof transactionRecordSchema>;

/**
 * GET /api/transactions/get_total_amount/: totals of the filtered set. totalAmount adds amounts as
 * entered (a payment counts like a charge); screens show chargesAmount, creditsAmount and netAmount.
 */
export const transactionTotalsSchema = z.object({
  totalAmount: amountString,
  /**
   * The sum of the entries that raise balances (charges, debits), with their voids and reversals
   * (a void or reversal counts with the entry it takes back): zero or more for ordinary ledgers.
   */
  chargesAmount: amountString,
  /** The sum of the entries that lower balances (payments, credits, discounts), with their voids and reversals. */
  creditsAmount: amountString,
  /** The net change to balances: chargesAmount + creditsAmount. */
  netAmount: amountString,
  count: z.number().int(),
});
export type TransactionTotals = z.output<typeof transactionTotalsSchema>;

/**
 * GET /api/transactions/posting_date/: the date of service a new entry left to today gets, by the
 * server's closed-period rule (the first open day when the books are closed through today). The
 * add rows start with it.
 */
export const postingDateSchema = z.object({
  service_date: dateString,
  /** Today's business date by the app clock. */
  today: dateString,
});
export type PostingDate = z.output<typeof postingDateSchema>;
