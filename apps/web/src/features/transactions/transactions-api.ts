import {
  DUPLICATE_TRANSACTION_MESSAGE,
  type PostingDate,
  type TransactionRecord,
  type TransactionTotals,
} from "@cyclebill/domain";
import { useMutation, useQuery, useQueryClient, keepPreviousData } from "@tanstack/react-query";
import { ApiError, allMessages, apiFetch, describeApiError, type QueryParams } from "../../api/api-client";
import type { Page } from "@cyclebill/domain";

/** One ledger entry as GET /api/transactions/ returns it: the domain's record. */
export type Transaction = TransactionRecord;

export type TransactionBody = {
  customer: number;
  code: number;
  description: string;
  quantity: string;
  rate: string;
  serviceDate: string;
  unitofmeasure: number;
  force?: boolean;
  invoice?: number;
};

/** The search filters (spec section 3, Transaction filter); null means unset. */
export type TransactionFilters = {
  customerId: number | null;
  codeId: number | null;
  codeType: string | null;
  createdFrom: string | null;
  createdTo: string | null;
  serviceFrom: string | null;
  serviceTo: string | null;
  invoice?: number | null;
  /** false: only entries not yet billed on a statement. */
  historical?: boolean;
};

export const EMPTY_FILTERS: TransactionFilters = {
  customerId: null,
  codeId: null,
  codeType: null,
  createdFrom: null,
  createdTo: null,
  serviceFrom: null,
  serviceTo: null,
};

export const SEARCH_PAGE_SIZE = 50;

export function filterParams(clientId: number | null, filters: TransactionFilters): QueryParams {
  return {
    client_id: clientId,
    customer__id: filters.customerId,
    code__id: filters.codeId,
    code__code_type: filters.codeType,
    created__gte: filters.createdFrom,
    created__lte: filters.createdTo,
    serviceDate__gte: filters.serviceFrom,
    serviceDate__lte: filters.serviceTo,
    invoice: filters.invoice ?? null,
    historical: filters.historical === false ? false : null,
  };
}

export const transactionsKey = ["transactions"] as const;

function pageQuery(clientId: number | null, filters: TransactionFilters, page: number, pageSize: number) {
  return {
    queryKey: [...transactionsKey, "page", clientId, filters, page, pageSize] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      apiFetch<Page<Transaction>>("/transactions/", {
        query: {
          ...filterParams(clientId, filters),
          limit: pageSize,
          offset: (page - 1) * pageSize,
          ordering: "-serviceDate",
        },
        signal,
      }),
  };
}

/** One page of the filtered ledger, cached per page number; the next page is fetched ahead. */
export function useTransactionPage(
  clientId: number | null,
  filters: TransactionFilters,
  page: number,
  pageSize: number,
  enabled = true,
) {
  const queryClient = useQueryClient();
  const result = useQuery({
    ...pageQuery(clientId, filters, page, pageSize),
    enabled: enabled && clientId !== null,
    placeholderData: keepPreviousData,
  });
  const count = result.data?.count ?? 0;
  if (enabled && clientId !== null && result.isSuccess && page * pageSize < count) {
    void queryClient.prefetchQuery(pageQuery(clientId, filters, page + 1, pageSize));
  }
  return result;
}

export function useTransactionTotals(clientId: number | null, filters: TransactionFilters, enabled = true) {
  return useQuery({
    queryKey: [...transactionsKey, "totals", clientId, filters],
    queryFn: ({ signal }) =>
      apiFetch<TransactionTotals>("/transactions/get_total_amount/", {
        query: filterParams(clientId, filters),
        signal,
      }),
    enabled: enabled && clientId !== null,
    placeholderData: keepPreviousData,
  });
}

/**
 * The date of service a new entry of today gets, by the server's closed-period rule (the first
 * open day once a run closed the books through today): the add rows' default. Read afresh each
 * time a row opens, as a run may have closed the books meanwhile.
 */
export function usePostingDate(clientId: number | null) {
  return useQuery({
    queryKey: [...transactionsKey, "posting-date", clientId],
    queryFn: ({ signal }) =>
      apiFetch<PostingDate>("/transactions/posting_date/", { query: { client_id: clientId }, signal }),
    enabled: clientId !== null,
    staleTime: 0,
  });
}

/** Invalidates every list, total and invoice that shows ledger entries. */
export function useRefreshLedger() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: transactionsKey }),
      queryClient.invalidateQueries({ queryKey: ["invoices"] }),
    ]);
}

export type RowAction = {
  kind: "delete" | "void" | "deleteVoid" | "reversal" | "deleteReversal";
  id: number;
  /** Why an entry is deleted: kept in the audit trail. */
  reason?: string;
};

export function useRowAction(clientId: number | null) {
  const refresh = useRefreshLedger();
  return useMutation({
    mutationFn: (action: RowAction) => {
      const query = { client_id: clientId, ...(action.reason ? { reason: action.reason } : {}) };
      switch (action.kind) {
        case "delete":
          return apiFetch<void>(`/transactions/${action.id}/`, { method: "DELETE", query });
        case "void":
          return apiFetch<void>(`/transactions/${action.id}/void_transaction/`, { method: "POST", query });
        case "deleteVoid":
          return apiFetch<void>(`/transactions/${action.id}/delete_void_transaction/`, {
            method: "DELETE",
            query,
          });
        case "reversal":
          return apiFetch<void>(`/transactions/${action.id}/reversal/`, { method: "POST", query });
        case "deleteReversal":
          return apiFetch<void>(`/transactions/${action.id}/delete_reversal/`, { method: "DELETE", query });
      }
    },
    onSettled: refresh,
  });
}

/** Posting and editing answer with their own messages (spec section 8), so 400s stay with the row. */
export function createTransaction(clientId: number | null, body: TransactionBody) {
  return apiFetch<Transaction>("/transactions/", {
    method: "POST",
    query: { client_id: clientId },
    body,
    handles: [400],
  });
}

export function editTransaction(clientId: number | null, id: number, body: TransactionBody) {
  return apiFetch<Transaction>(`/transactions/${id}/edit_transaction/`, {
    method: "POST",
    query: { client_id: clientId },
    body,
    handles: [400],
  });
}

export const BACKEND_ERROR_TITLE = "Backend error occurred saving data";
export const BACKEND_ERROR_TEXT =
  "Make sure your transaction input is complete and not missing required fields";
export const MALFORMED_TITLE =
  "Malformed request, may be missing or invalid parameters required for API call";
export const MARKED_FOR_DELETION = "Customer is marked for deletion and cannot accept charge transactions.";

/** How a failed save is shown: the duplicate question, or an error with a title and details. */
export type SaveFailure =
  { kind: "duplicate" } | { kind: "error"; title: string; message: string; details: string[] };

export function classifySaveError(error: unknown): SaveFailure {
  if (!(error instanceof ApiError)) {
    return { kind: "error", title: BACKEND_ERROR_TITLE, message: BACKEND_ERROR_TEXT, details: [] };
  }
  const body = error.body as { non_field_errors?: unknown } | undefined;
  const nonField = body && typeof body === "object" ? allMessages(body.non_field_errors) : [];
  const all = allMessages(error.body);
  if (nonField[0] === DUPLICATE_TRANSACTION_MESSAGE) return { kind: "duplicate" };
  if (all.some((message) => message.includes("Customer is marked for deletion"))) {
    return { kind: "error", title: BACKEND_ERROR_TITLE, message: MARKED_FOR_DELETION, details: [] };
  }
  if (error.status === 400 && nonField.length > 0) {
    return { kind: "error", title: MALFORMED_TITLE, message: nonField.join(" "), details: nonField };
  }
  if (error.status === 400 && all.length > 0) {
    return { kind: "error", title: BACKEND_ERROR_TITLE, message: describeApiError(error), details: all };
  }
  return { kind: "error", title: BACKEND_ERROR_TITLE, message: BACKEND_ERROR_TEXT, details: all };
}

export type StoredAmount = {
  storedCode: number;
  description: string;
  rate: string;
  quantity: string | number;
  unitofmeasure: number | null;
};

export function fetchStoredAmount(clientId: number | null, customerId: number, codeId: number) {
  return apiFetch<Page<StoredAmount>>("/storedamounts/", {
    query: { client_id: clientId, customer__id: customerId, storedCode: codeId },
    handles: "all",
  }).then((page) => page.results.find((stored) => stored.storedCode === codeId) ?? null);
}

export type CustomerMatch = { id: number; customer_no: number | string; customer_name: string };

export function searchCustomers(clientId: number | null, query: string, signal: AbortSignal) {
  return apiFetch<Page<CustomerMatch>>("/typeahead/customers/", {
    query: { client_id: clientId, query },
    signal,
  });
}
