import type { ArchiveState, CustomerValues } from "@cyclebill/domain";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";
import type { Paged } from "../clients/client-api";
import type { RecurringValues, StoredValues } from "./charge-drafts";

/** A customer as GET /api/customers/{id}/ returns it. Amounts are decimal strings. */
export type CustomerRecord = {
  id: number;
  client: number;
  customer_no: number;
  customer_name: string;
  first_name: string;
  last_name: string;
  company_name: string;
  phone1: string;
  phone2: string;
  phone3: string;
  email: string;
  address1: string;
  address2: string;
  address3: string;
  city: string;
  state: string;
  zip: string;
  property_address1: string;
  property_address2: string;
  property_address3: string;
  property_city: string;
  property_state: string;
  property_zip: string;
  pull_flag: string;
  pull_explanation: string;
  bi_pull_flag: string;
  finance_flag: string;
  autopay_flag: boolean;
  tax_status: string;
  message: string;
  message_duration: number;
  message_internal: string;
  message_field: string;
  bluepay_transaction_message: string;
  delete_flag: "D" | "S" | null;
  deleted: boolean;
  archive_state: ArchiveState;
  open_date: string;
  last_pay_date: string | null;
  balance: string;
  total_balance: string;
  previous_balance: string;
  mtd_charges: string;
  mtd_payments: string;
  mtd_cr_adj: string;
  mtd_db_adj: string;
  current_balance: string;
  overdue_30_days: string;
  overdue_60_days: string;
  overdue_90_days: string;
  overdue_over_90_days: string;
};

/** A row of the Manage Customers list: the record plus columns computed from the ledger. */
export type CustomerListRow = CustomerRecord & {
  current_charges: string;
  current_payments_credits: string;
  contract_balance: string;
  adjusted_total_balance: string;
  mtdCharges: string;
  mtdCRAdjust: string;
  mtdDebitAdjust: string;
  lastChargeAmount: string | null;
  lastChargeDate: string | null;
  lastPaymentAmount: string | null;
  lastPaymentDate: string | null;
  lastCreditAmount: string | null;
  lastCreditDate: string | null;
};

/** GET /api/summary-data/customer/{id}: the Status tab. */
export type CustomerSummary = {
  open_date: string | null;
  last_pay_date: string | null;
  balance: string;
  previous_balance: string;
  current_balance: string;
  overdue_30_days: string;
  overdue_60_days: string;
  overdue_90_days: string;
  overdue_over_90_days: string;
  currentCharges: string;
  ytdCharges: string;
  charges_last_yr: string;
  last_charge_date: string | null;
  currentPayments: string;
  ytdPayments: string;
  last_pay_date_1: string | null;
  last_pay_date_2: string | null;
  last_pay_date_3: string | null;
  last_pay_date_4: string | null;
  currentCreditAdjustment: string;
  ytdCreditAdjustment: string;
  last_year_credits: string;
  last_credit_amount: string | null;
  last_cr_adj_date: string | null;
  currentDebitAdjustment: string;
  ytdDebitAdjustment: string;
  last_year_db_adj: string;
  last_debit_amount: string | null;
  unprocessedBalance: string;
  tax: string;
};

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
      apiFetch<Paged<CustomerListRow>>("/customers/", {
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

/** Add Customer with its recurring charges, stored amounts and groups; all or nothing. */
export function useFullCreateCustomer(clientId: number) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateCustomers(clientId);
  return useMutation({
    mutationFn: (body: FullCreateBody) =>
      apiFetch<CustomerRecord>("/customers/full-create/", {
        method: "POST",
        query: { client_id: clientId },
        body,
        handles: [400],
      }),
    onSuccess: async (customer) => {
      queryClient.setQueryData(customerKey(clientId, customer.id), customer);
      await invalidate();
      // Group memberships were created with it.
      await queryClient.invalidateQueries({ queryKey: ["routes", clientId] });
    },
  });
}

/** The editor's Save Customer (PUT, full body). */
export function useUpdateCustomer(clientId: number, customerId: number) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateCustomers(clientId);
  return useMutation({
    mutationFn: (body: CustomerValues) =>
      apiFetch<CustomerRecord>(`/customers/${String(customerId)}/`, {
        method: "PUT",
        query: { client_id: clientId },
        body,
        handles: [400],
      }),
    onSuccess: async (customer) => {
      queryClient.setQueryData(customerKey(clientId, customer.id), customer);
      await invalidate();
      await queryClient.invalidateQueries({ queryKey: ["routes", clientId] });
    },
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
