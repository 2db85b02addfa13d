import type { CustomerListRow, CustomerRecord, CustomerSummary, CustomerValues } from "@cyclebill/domain";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";
import type { Page } from "@cyclebill/domain";
import type { RecurringValues, StoredValues } from "./charge-drafts";

export type CustomerSortField =
  | "customer_no"
  | "customer_name"
  | "city"
  | "email"
  | "open_date"
  | "last_pay_date"
  | "balance"
  | "previous_balance"
  | "mtd_charges"
  | "mtd_payments"
  | "first_name"
  | "last_name";

export type ArchiveFilter = "none" | "archived" | "pending";

export type CustomerListParams = {
  limit: number;
  offset: number;
  ordering: string;
  query: string;
  startDate: string;
  endDate: string;
  archive: ArchiveFilter;
};

/** Body of POST /api/customers/full-create/: everything already checked with the shared schemas. */
export type FullCreateBody = {
  customer: CustomerValues;
  recurring_charges: RecurringValues[];
  stored_amounts: StoredValues[];
  group_ids: number[];
};

export const customersKey = (clientId: number) => ["customers", clientId] as const;
export const customerKey = (clientId: number, customerId: number) =>
  ["customers", clientId, "detail", customerId] as const;

/** Manage Customers: filtered, sorted and paged by the server. */
export function useCustomerList(clientId: number | null, params: CustomerListParams) {
  return useQuery({
    queryKey: ["customers", clientId, "list", params],
    queryFn: ({ signal }) =>
      apiFetch<Page<CustomerListRow>>("/customers/", {
        query: {
          client_id: clientId,
          limit: params.limit,
          offset: params.offset,
          ordering: params.ordering,
          query: params.query || null,
          startDate: params.startDate || null,
          endDate: params.endDate || null,
          includeOnlyArchived: params.archive === "archived" ? true : null,
          includeOnlyPendingArchived: params.archive === "pending" ? true : null,
        },
        signal,
      }),
    enabled: clientId !== null,
    placeholderData: keepPreviousData,
  });
}

export function useCustomer(clientId: number | null, customerId: number) {
  return useQuery({
    queryKey: ["customers", clientId, "detail", customerId],
    queryFn: ({ signal }) =>
      apiFetch<CustomerRecord>(`/customers/${String(customerId)}/`, {
        query: { client_id: clientId },
        signal,
      }),
    enabled: clientId !== null,
  });
}

export function useCustomerSummary(clientId: number, customerId: number) {
  return useQuery({
    queryKey: ["customers", clientId, "summary", customerId],
    queryFn: ({ signal }) =>
      apiFetch<CustomerSummary>(`/summary-data/customer/${String(customerId)}`, {
        query: { client_id: clientId },
        signal,
      }),
  });
}

/** After any customer change: the lists, the record, the typeahead and the home counts. */
function useInvalidateCustomers(clientId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: customersKey(clientId) }),
      queryClient.invalidateQueries({ queryKey: ["customers", "typeahead", clientId] }),
      queryClient.invalidateQueries({ queryKey: ["summary", clientId] }),
    ]);
}

/**
 * After a customer is added or saved: its record as the server answered, then fresh customer lists and
 * group lists, which show the customer (an added one joins its groups with it).
 */
function useCustomerSaved(clientId: number) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateCustomers(clientId);
  return async (customer: CustomerRecord) => {
    queryClient.setQueryData(customerKey(clientId, customer.id), customer);
    await invalidate();
    await queryClient.invalidateQueries({ queryKey: ["routes", clientId] });
  };
}

/** Add Customer with its recurring charges, stored amounts and groups; all or nothing. */
export function useFullCreateCustomer(clientId: number) {
  const saved = useCustomerSaved(clientId);
  return useMutation({
    mutationFn: (body: FullCreateBody) =>
      apiFetch<CustomerRecord>("/customers/full-create/", {
        method: "POST",
        query: { client_id: clientId },
        body,
        handles: [400],
      }),
    onSuccess: saved,
  });
}

/** The editor's Save Customer (PUT, full body). */
export function useUpdateCustomer(clientId: number, customerId: number) {
  const saved = useCustomerSaved(clientId);
  return useMutation({
    mutationFn: (body: CustomerValues) =>
      apiFetch<CustomerRecord>(`/customers/${String(customerId)}/`, {
        method: "PUT",
        query: { client_id: clientId },
        body,
        handles: [400],
      }),
    onSuccess: saved,
  });
}

/** Archives a zero-balance customer; a balance answers 400, which the list turns into the choice dialog. */
export function useArchiveCustomer(clientId: number) {
  const invalidate = useInvalidateCustomers(clientId);
  return useMutation({
    mutationFn: (customerId: number) =>
      apiFetch<void>(`/customers/${String(customerId)}/`, {
        method: "DELETE",
        query: { client_id: clientId },
        handles: [400],
      }),
    onSuccess: invalidate,
  });
}

/** D: archive when zero, billing stopped; S: archive when zero, billing continues; null: remove the mark. */
export function useSetDeleteFlag(clientId: number) {
  const invalidate = useInvalidateCustomers(clientId);
  return useMutation({
    mutationFn: ({ customerId, deleteFlag }: { customerId: number; deleteFlag: "D" | "S" | null }) =>
      apiFetch<CustomerRecord>(`/customers/${String(customerId)}/delete-flag/`, {
        method: "POST",
        query: { client_id: clientId },
        body: { delete_flag: deleteFlag },
      }),
    onSuccess: invalidate,
  });
}

/** Unarchive (the transaction history is not kept) or clear a pending mark. */
export function useUndeleteCustomer(clientId: number) {
  const invalidate = useInvalidateCustomers(clientId);
  return useMutation({
    mutationFn: (customerId: number) =>
      apiFetch<CustomerRecord>(`/customers/${String(customerId)}/undelete-now/`, {
        method: "POST",
        query: { client_id: clientId },
      }),
    onSuccess: invalidate,
  });
}
