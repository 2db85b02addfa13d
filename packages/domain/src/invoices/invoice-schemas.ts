import { z } from "zod";
import { integerParam, listQuerySchema, queryFlag, recordQuerySchema } from "../api/list-query.js";
import { calendarDate } from "../calendar/calendar-date.js";

const MAX_IDS = 5000;
const idList = z.array(integerParam({ min: 1 })).max(MAX_IDS);

/** Add invoice: the customer and the invoice date (today when absent). */
export const invoiceCreateSchema = z.object({
  customer: integerParam({ min: 1 }),
  invoice_date: calendarDate().optional(),
});
export type InvoiceCreateInput = z.infer<typeof invoiceCreateSchema>;

/** Edit invoice (full body): the date; the customer may only change while the invoice is empty. */
export const invoiceUpdateSchema = z.object({
  customer: integerParam({ min: 1 }).optional(),
  invoice_date: calendarDate(),
});
export type InvoiceUpdateInput = z.infer<typeof invoiceUpdateSchema>;

/** Filters of the invoice and statement lists; dates are on invoice_date / statement_date. */
export const documentListQuerySchema = listQuerySchema.extend({
  customer_id: integerParam({ min: 1 }).optional(),
  start_date: calendarDate().optional(),
  end_date: calendarDate().optional(),
});
export type DocumentListQuery = z.infer<typeof documentListQuerySchema>;

/** The statements list: also `proves=false` (the statements that no longer prove themselves, current versions only). */
export const statementListQuerySchema = documentListQuerySchema.extend({
  proves: queryFlag.optional(),
});
export type StatementListQuery = z.infer<typeof statementListQuerySchema>;

/** Delete from the combined Invoices and Statements table, which says what kind the id is. */
export const invoiceDeleteQuerySchema = recordQuerySchema.extend({
  document: z.enum(["invoice", "statement"]).optional(),
});

/** One open invoice per customer with uninvoiced new transactions; every customer when none named. */
export const bulkAddInvoicesSchema = z.object({
  customer_ids: idList.optional(),
  invoice_date: calendarDate().optional(),
});
export type BulkAddInvoicesInput = z.infer<typeof bulkAddInvoicesSchema>;

/**
 * Empty lists are allowed here: the service answers with the spec's "No statements to combine".
 * invoice_ids (closed or sent invoices) print after the statements, for a selection of both kinds.
 */
export const combineStatementsSchema = z.object({
  client_id: integerParam({ min: 1 }).optional(),
  statement_ids: idList,
  invoice_ids: idList.optional(),
});
export type CombineStatementsInput = z.infer<typeof combineStatementsSchema>;
