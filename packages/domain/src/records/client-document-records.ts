import { z } from "zod";
import { amountString, dateString, timestampString } from "../api/page-schema.js";
import { integerParam, listQuerySchema } from "../api/list-query.js";
import { calendarDate } from "../calendar/calendar-date.js";
import { DOCUMENT_TYPES, INVOICE_STATUSES } from "../invoices/invoice-rules.js";
import { INVOICE_ACTIONS, STATEMENT_ACTIONS } from "../ledger/entry-actions.js";
import { STATEMENT_DELIVERIES } from "./document-records.js";
import { statementEmailSchema } from "./pool-records.js";

// GET /api/invoices-and-statements/: every invoice and statement of the client in one list, with
// the money on each (amount, amount due, due date) and how it went out. Paged and sorted by the
// server, so the whole client's documents can be browsed 15 at a time.

/** Invoices and Statements page size (spec section 9). */
export const CLIENT_DOCUMENTS_PAGE_SIZE = 15;

/** "open": something is still due on it; "overdue": something is due and its due date has passed. */
export const DOCUMENT_BALANCE_FILTERS = ["open", "overdue"] as const;
export type DocumentBalanceFilter = (typeof DOCUMENT_BALANCE_FILTERS)[number];

/** Columns the list sorts on (a leading minus sorts descending). */
export const CLIENT_DOCUMENT_ORDERING_FIELDS = [
  "document",
  "invoice_num",
  "customer_no",
  "customer_name",
  "invoice_date",
  "created",
  "invoice_status",
  "amount",
  "amount_due",
  "due_date",
  "sent_state",
] as const;
export type ClientDocumentOrderingField = (typeof CLIENT_DOCUMENT_ORDERING_FIELDS)[number];

export const clientDocumentsQuerySchema = listQuerySchema.extend({
  customer_id: integerParam({ min: 1 }).optional(),
  /** On the document's date: invoice_date, or a statement's statement_date. */
  start_date: calendarDate().optional(),
  end_date: calendarDate().optional(),
  document_type: z.enum(DOCUMENT_TYPES, { error: `Choose one of: ${DOCUMENT_TYPES.join(", ")}.` }).optional(),
  invoice_status: z
    .enum(INVOICE_STATUSES, { error: `Choose one of: ${INVOICE_STATUSES.join(", ")}.` })
    .optional(),
  balance: z
    .enum(DOCUMENT_BALANCE_FILTERS, { error: `Choose one of: ${DOCUMENT_BALANCE_FILTERS.join(", ")}.` })
    .optional(),
});
export type ClientDocumentsQuery = z.infer<typeof clientDocumentsQuerySchema>;

/**
 * Where a document stands on its way to the customer. not_sent: an invoice no statement has
 * carried yet; waiting: its print pool is not downloaded yet or its email not yet accepted;
 * sent: printed (pool downloaded) and/or emailed, as its delivery asks; failed: its email failed;
 * pulled: held back, not sent.
 */
export const DOCUMENT_SENT_STATES = ["not_sent", "waiting", "sent", "failed", "pulled"] as const;
export type DocumentSentState = (typeof DOCUMENT_SENT_STATES)[number];

export const clientDocumentSchema = z.object({
  document: z.enum(["invoice", "statement"]),
  id: z.number().int(),
  /** The invoice number (0 shows as 1), or the statement number. */
  invoice_num: z.number().int(),
  customer_id: z.number().int(),
  customer_no: z.number().int(),
  customer_name: z.string(),
  /** The invoice date, or the statement date. */
  invoice_date: dateString,
  created: timestampString,
  invoice_status: z.enum(INVOICE_STATUSES),
  /** An invoice's total (its lines, voided ones counting nothing); a statement's new balance. */
  amount: amountString,
  /**
   * What the customer still owes on it. A statement: only the customer's latest one is payable
   * (older ones were carried forward into it), at its new balance capped by what the customer owes
   * now, as the pay page asks; nothing for autopay customers, whose card run pays it. An invoice:
   * its total less what the customer has paid since, payments settling the oldest charges first.
   */
  amount_due: amountString,
  /** The document date plus the client's terms; null for an open invoice (not issued yet). */
  due_date: dateString.nullable(),
  overdue: z.boolean(),
  /** Invoices: the statement that carried it. */
  statement_id: z.number().int().nullable(),
  /** Statements: a newer statement of the customer carried its balance forward. */
  carried_forward: z.boolean(),
  /** The customer pays by autopay (a stored method the client can charge). */
  autopay: z.boolean(),
  /** How it went out (an invoice: as the statement that carried it); null while not sent. */
  delivery: z.enum(STATEMENT_DELIVERIES).nullable(),
  email: statementEmailSchema.nullable(),
  /** When its print pool was first downloaded (went to print). */
  printed_at: timestampString.nullable(),
  sent_state: z.enum(DOCUMENT_SENT_STATES),
  /**
   * Statements: its version and proof (issue 41): a corrected version (version > 1, corrected_on),
   * one replaced by its corrected version (replaced_by), one that no longer proves itself after its
   * period changed (proves false), one waiting for the next print pool. Null for an invoice.
   */
  correction: z
    .object({
      version: z.number().int(),
      corrected_on: dateString.nullable(),
      replaced_by: z.number().int().nullable(),
      proves: z.boolean(),
      queued_for_pool: z.boolean(),
    })
    .nullable(),
  /** What the server accepts on it now (an invoice's or a statement's actions): the row offers exactly these. */
  actions: z.array(z.union([z.enum(INVOICE_ACTIONS), z.enum(STATEMENT_ACTIONS)])),
});
export type ClientDocument = z.output<typeof clientDocumentSchema>;
