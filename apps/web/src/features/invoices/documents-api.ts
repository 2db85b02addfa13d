import {
  DOCUMENT_BALANCE_FILTERS,
  DOCUMENT_TYPES,
  INVOICE_STATUSES,
  MAX_PAGE_SIZE,
  type ClientDocument,
  type ClientDocumentOrderingField,
  type DocumentBalanceFilter,
  type DocumentType,
  type InvoiceStatus,
  type Page,
} from "@cyclebill/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch, type QueryParams } from "../../api/api-client";
import { parseClientId } from "../../shared/client-context";
import { orderingParam, type SortState } from "../../lib/paging";

// The Invoices and Statements screen: every invoice and statement of the client, filtered, sorted
// and paged by the server (GET /invoices-and-statements/), with the money on each.

export type DocumentRow = ClientDocument;
export type DocumentSortField = ClientDocumentOrderingField;

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

/** Processed means sent to the customer. */
export const STATUS_LABELS: Record<InvoiceStatus, string> = {
  open: "Open",
  closed: "Closed",
  processed: "Sent",
};

export const BALANCE_LABELS: Record<DocumentBalanceFilter, string> = {
  open: "Amount due",
  overdue: "Overdue",
};

export function isDocumentType(value: string | null): value is DocumentType {
  return (DOCUMENT_TYPES as readonly string[]).includes(value ?? "");
}

function isStatus(value: string | null): value is InvoiceStatus {
  return (INVOICE_STATUSES as readonly string[]).includes(value ?? "");
}

function isBalance(value: string | null): value is DocumentBalanceFilter {
  return (DOCUMENT_BALANCE_FILTERS as readonly string[]).includes(value ?? "");
}

/** The applied filters; they live in the address so links and reloads keep the list. */
export type DocumentFilter = {
  customerId: number | null;
  startDate: string;
  endDate: string;
  documentType: DocumentType;
  status: InvoiceStatus | null;
  balance: DocumentBalanceFilter | null;
};

function isoDateParam(value: string | null): string {
  return value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : "";
}

export function filterFromParams(params: URLSearchParams): DocumentFilter {
  const type = params.get("document_type");
  const status = params.get("invoice_status");
  const balance = params.get("balance");
  return {
    customerId: parseClientId(params.get("customer_id")),
    startDate: isoDateParam(params.get("start_date")),
    endDate: isoDateParam(params.get("end_date")),
    documentType: isDocumentType(type) ? type : "both",
    status: isStatus(status) ? status : null,
    balance: isBalance(balance) ? balance : null,
  };
}

/** The address's query with these filters (other keys, like client_id, kept). */
export function paramsWithFilter(current: URLSearchParams, filter: DocumentFilter): URLSearchParams {
  const next = new URLSearchParams(current);
  const entries: [string, string | null][] = [
    ["customer_id", filter.customerId === null ? null : String(filter.customerId)],
    ["start_date", filter.startDate || null],
    ["end_date", filter.endDate || null],
    ["document_type", filter.documentType === "both" ? null : filter.documentType],
    ["invoice_status", filter.status],
    ["balance", filter.balance],
  ];
  for (const [key, value] of entries) {
    if (value === null) next.delete(key);
    else next.set(key, value);
  }
  return next;
}

function filterQuery(clientId: number, filter: DocumentFilter): QueryParams {
  return {
    client_id: clientId,
    customer_id: filter.customerId,
    start_date: filter.startDate || null,
    end_date: filter.endDate || null,
    document_type: filter.documentType === "both" ? null : filter.documentType,
    invoice_status: filter.status,
    balance: filter.balance,
  };
}

export type DocumentPageRequest = {
  filter: DocumentFilter;
  sort: SortState<DocumentSortField>;
  page: number;
  pageSize: number;
};

/** One page of the client's documents. */
export function useClientDocuments(clientId: number, request: DocumentPageRequest) {
  return useQuery({
    queryKey: ["invoices", clientId, "documents", request],
    queryFn: ({ signal }) =>
      apiFetch<Page<DocumentRow>>("/invoices-and-statements/", {
        query: {
          ...filterQuery(clientId, request.filter),
          ordering: orderingParam(request.sort),
          limit: request.pageSize,
          page: request.page,
        },
        signal,
      }),
    // Another page or order of the same list keeps the rows shown while it loads; other filters
    // show the loading rows, not the previous filter's documents.
    placeholderData: (previous, previousQuery) => {
      const before = previousQuery?.queryKey[3] as DocumentPageRequest | undefined;
      return before && JSON.stringify(before.filter) === JSON.stringify(request.filter)
        ? previous
        : undefined;
    },
  });
}

/** Most statements one combined PDF takes without a selection; more asks for narrower filters. */
export const COMBINE_LIMIT = 500;

/** Every statement the filters list, in the list's order, for Combine without a selection. */
export async function listedStatements(
  clientId: number,
  filter: DocumentFilter,
  sort: SortState<DocumentSortField>,
): Promise<{ ids: number[]; count: number }> {
  if (filter.documentType === "invoices") return { ids: [], count: 0 };
  const page = await apiFetch<Page<DocumentRow>>("/invoices-and-statements/", {
    query: {
      ...filterQuery(clientId, { ...filter, documentType: "statements" }),
      ordering: orderingParam(sort),
      limit: Math.min(COMBINE_LIMIT, MAX_PAGE_SIZE),
    },
  });
  return { ids: page.results.map((row) => row.id), count: page.count };
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

/** "invoice 12" / "statement 7": how buttons name their row. */
export function documentName(row: Pick<DocumentRow, "document" | "invoice_num">): string {
  return `${row.document} ${String(row.invoice_num)}`;
}

/** A row has a PDF when the server offers one (not while an invoice is open: the spec's Get PDF rule). */
export function hasPdf(row: Pick<DocumentRow, "actions">): boolean {
  return (row.actions as readonly string[]).includes("pdf");
}

export function pdfPath(row: Pick<DocumentRow, "document" | "id">): string {
  return row.document === "invoice"
    ? `/invoices/${String(row.id)}/pdf/`
    : `/statements/${String(row.id)}/pdf/`;
}

const DELIVERY_LABELS: Record<NonNullable<DocumentRow["delivery"]>, string> = {
  mail: "Mail",
  email: "Email",
  both: "Mail and email",
  bulk: "Bulk to the client",
  pulled: "Pulled",
};

/**
 * How it went out and where that stands: "Mail · printed", "Email · sent", "Mail · waiting to
 * print", "Email · failed"; an invoice says so while no statement has carried it.
 */
export function deliveryLabel(
  row: Pick<DocumentRow, "delivery" | "email" | "sent_state" | "document">,
): string {
  if (row.delivery === null) return row.document === "invoice" ? "Not sent yet" : "Not sent";
  if (row.delivery === "pulled") return "Pulled, not sent";
  const how = DELIVERY_LABELS[row.delivery];
  switch (row.sent_state) {
    case "sent":
      return `${how} · ${row.delivery === "email" ? "sent" : row.delivery === "both" ? "printed and sent" : "printed"}`;
    case "failed":
      return `${how} · email failed`;
    case "waiting": {
      const emailed = row.delivery === "email" || row.delivery === "both";
      if (emailed && row.email?.status !== "sent")
        return `${how} · ${row.delivery === "both" ? "email " : ""}${row.email?.status ?? "not queued"}`;
      return `${how} · waiting to print`;
    }
    default:
      return how;
  }
}
