import {
  DOCUMENT_TYPES,
  MAX_PAGE_SIZE,
  displayInvoiceNum,
  type DocumentType,
  type InvoiceRecord,
  type InvoiceStatus,
  type Page,
  type StatementRecord,
} from "@cyclebill/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";
import type { SortState } from "../../lib/paging";

// The Invoices and Statements screen: a customer's invoices and statements in one table. The two
// lists come from their own endpoints and are merged here; one customer has few documents, so
// each is fetched whole and sorted and paged in the browser, across both kinds at once.

export type InvoiceListRow = InvoiceRecord;
export type StatementListRow = StatementRecord;

/** One row of the combined table; the field names are the spec's columns. */
export type DocumentRow = {
  key: string;
  kind: "invoice" | "statement";
  id: number;
  /** Shown as Statement or Invoice. */
  statement_date: "Statement" | "Invoice";
  /** The invoice number (0 shows as 1), or the statement number. */
  invoice_num: number;
  customer_id: number;
  customer_no: number;
  customer_name: string;
  /** A statement's statement_date. */
  invoice_date: string;
  created: string;
  invoice_status: InvoiceStatus;
  /** The invoice total, or the statement's new balance. */
  amount: string;
  /** Invoices: the statement that carried it. */
  statement_id: number | null;
  /** Statements: how it went out, and its email when it went by email. */
  delivery: StatementRecord["delivery"] | null;
  email: StatementRecord["email"];
  /** What the server accepts on it now (pdf, delete, ...): the row offers exactly these. */
  actions: readonly string[];
};

export type DocumentSortField =
  "statement_date" | "invoice_num" | "customer_id" | "invoice_date" | "created" | "invoice_status";

/** Spec section 9: newest document first. */
export const DEFAULT_DOCUMENT_SORT: SortState<DocumentSortField> = {
  field: "invoice_date",
  descending: true,
};

export const DOCUMENT_TYPE_LABELS: Record<DocumentType, string> = {
  both: "Both",
  invoices: "Invoices",
  statements: "Statements",
};

export function isDocumentType(value: string | null): value is DocumentType {
  return (DOCUMENT_TYPES as readonly string[]).includes(value ?? "");
}

/** Processed means sent to the customer. */
export const STATUS_LABELS: Record<InvoiceStatus, string> = {
  open: "Open",
  closed: "Closed",
  processed: "Sent",
};

export type DocumentFilter = {
  customerId: number;
  startDate: string;
  endDate: string;
};

export function invoiceRow(invoice: InvoiceListRow): DocumentRow {
  return {
    key: `invoice-${String(invoice.id)}`,
    kind: "invoice",
    id: invoice.id,
    statement_date: "Invoice",
    invoice_num: displayInvoiceNum(invoice.invoice_num),
    customer_id: invoice.customer_id,
    customer_no: invoice.customer_no,
    customer_name: invoice.customer_name,
    invoice_date: invoice.invoice_date,
    created: invoice.created,
    invoice_status: invoice.invoice_status,
    amount: invoice.total,
    statement_id: invoice.statement,
    delivery: null,
    email: null,
    actions: invoice.actions,
  };
}

export function statementRow(statement: StatementListRow): DocumentRow {
  return {
    key: `statement-${String(statement.id)}`,
    kind: "statement",
    id: statement.id,
    statement_date: "Statement",
    invoice_num: statement.statement_num,
    customer_id: statement.customer_id,
    customer_no: statement.customer_no,
    customer_name: statement.customer_name,
    invoice_date: statement.statement_date,
    created: statement.created,
    invoice_status: statement.invoice_status,
    amount: statement.new_balance,
    statement_id: statement.id,
    delivery: statement.delivery,
    email: statement.email,
    actions: statement.actions,
  };
}

/** Sort key of a column: numbers compare as numbers, ISO dates and labels as text. */
export function documentSortKey(row: DocumentRow, field: DocumentSortField): string | number {
  switch (field) {
    case "customer_id":
      return row.customer_no;
    case "invoice_status":
      return STATUS_LABELS[row.invoice_status];
    default:
      return row[field];
  }
}

/** Newest first, a statement before the invoices it carried, then the higher number. */
export function naturalOrder(a: DocumentRow, b: DocumentRow): number {
  if (a.invoice_date !== b.invoice_date) return a.invoice_date < b.invoice_date ? 1 : -1;
  if (a.kind !== b.kind) return a.kind === "statement" ? -1 : 1;
  return b.invoice_num - a.invoice_num;
}

function documentQuery(clientId: number, filter: DocumentFilter) {
  return {
    client_id: clientId,
    customer_id: filter.customerId,
    start_date: filter.startDate || null,
    end_date: filter.endDate || null,
    limit: MAX_PAGE_SIZE,
  };
}

/** Both lists for one search; null until there is a search. */
export function useDocuments(clientId: number, filter: DocumentFilter | null) {
  const invoices = useQuery({
    queryKey: ["invoices", clientId, "list", filter],
    queryFn: ({ signal }) =>
      apiFetch<Page<InvoiceListRow>>("/invoices/", {
        query: filter ? documentQuery(clientId, filter) : {},
        signal,
      }),
    enabled: filter !== null,
  });
  const statements = useQuery({
    queryKey: ["statements", clientId, "list", filter],
    queryFn: ({ signal }) =>
      apiFetch<Page<StatementListRow>>("/statements/", {
        query: filter ? documentQuery(clientId, filter) : {},
        signal,
      }),
    enabled: filter !== null,
  });
  const rows =
    invoices.data && statements.data
      ? [...invoices.data.results.map(invoiceRow), ...statements.data.results.map(statementRow)].sort(
          naturalOrder,
        )
      : null;
  const truncated =
    (invoices.data ? invoices.data.count > invoices.data.results.length : false) ||
    (statements.data ? statements.data.count > statements.data.results.length : false);
  return {
    rows,
    truncated,
    isFetching: invoices.isFetching || statements.isFetching,
    isLoading: invoices.isLoading || statements.isLoading,
    error: invoices.error ?? statements.error,
    refetch: () => Promise.all([invoices.refetch(), statements.refetch()]),
  };
}

export type CustomerName = { id: number; customer_no: number | string; customer_name: string };

/** The customer named in the address, for the typeahead's label. */
export function useCustomerName(clientId: number, customerId: number | null) {
  return useQuery({
    queryKey: ["customers", clientId, "detail", customerId],
    queryFn: ({ signal }) =>
      apiFetch<CustomerName>(`/customers/${String(customerId)}/`, { query: { client_id: clientId }, signal }),
    enabled: customerId !== null,
  });
}

/** Delete an open or closed invoice; the server refuses processed ones with the spec's message. */
export function useDeleteInvoice(clientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invoiceId: number) =>
      apiFetch<void>(`/invoices/${String(invoiceId)}/`, {
        method: "DELETE",
        query: { client_id: clientId, document: "invoice" },
        // The screen shows the server's refusal itself.
        handles: [400, 404],
      }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ["invoices", clientId] }),
        queryClient.invalidateQueries({ queryKey: ["transactions"] }),
      ]),
  });
}

const DELIVERY_LABELS: Record<StatementRecord["delivery"], string> = {
  mail: "Mailed",
  email: "Emailed",
  both: "Mailed and emailed",
  bulk: "Shipped to the client",
  pulled: "Pulled",
};

const EMAIL_LABELS: Record<NonNullable<StatementRecord["email"]>["status"], string> = {
  queued: "email queued",
  sending: "email sending",
  sent: "email sent",
  failed: "email failed",
};

/** "Mailed and emailed · email sent", or null for an invoice. */
export function deliveryLabel(row: Pick<DocumentRow, "delivery" | "email">): string | null {
  if (row.delivery === null) return null;
  const how = DELIVERY_LABELS[row.delivery];
  return row.email ? `${how} · ${EMAIL_LABELS[row.email.status]}` : how;
}
