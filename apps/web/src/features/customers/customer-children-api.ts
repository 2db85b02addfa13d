import type { CodeMatch } from "../../shared/codes";
import { MAX_PAGE_SIZE, type RecurringFrequency } from "@cyclebill/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch, type ApiFetchOptions } from "../../api/api-client";
import type { Page } from "@cyclebill/domain";

// Stored amounts, recurring charges, group memberships of one customer, and the look-ups their forms need.

export type StoredAmount = {
  id: number;
  customer: number;
  /** The code's id. */
  storedCode: number;
  description: string;
  rate: string;
  quantity: string;
  unitofmeasure: number | null;
  storedAmount: string;
  created: string;
};

export type RecurringCharge = {
  id: number;
  customer: number;
  /** The code's id. */
  auto_code: number;
  description: string;
  rate: string;
  quantity: number;
  auto_amount: string;
  start_month: number;
  end_month: number;
  frequency: RecurringFrequency;
  arrears: boolean;
  finance_type: "Advance" | "Arrears";
  unitofmeasure: number | null;
  /** The first day it may bill (null: from the day it was entered). */
  start_date: string | null;
  created: string;
};

/** Input shapes: the server parses them with the shared schemas. */
export type StoredAmountBody = {
  customer: number;
  storedCode: number;
  description: string;
  rate: string;
  quantity: string;
  unitofmeasure: number;
};

export type RecurringChargeBody = {
  customer: number;
  auto_code: number;
  description: string;
  rate: string;
  quantity: number;
  start_month: number;
  end_month: number;
  frequency: RecurringFrequency;
  arrears: boolean;
  unitofmeasure: number;
  start_date: string | null;
};

/** A bill code as the code lists return it: the shared code match. */
export type CodeOption = CodeMatch;
export type GroupOption = { id: number; route_name: string };

export type BillIndicatorFlag = "standard" | "skip" | "pause";

export type Membership = {
  routeplan_id: number;
  id: number;
  route: number;
  route_name: string;
  customer: number;
  stop: number;
  position: number;
  bill_indicator_flag: BillIndicatorFlag;
};

export type MembershipBody = {
  route: number | null;
  customer: number;
  stop?: number;
  bill_indicator_flag: BillIndicatorFlag;
};

const storedKey = (clientId: number, customerId: number) => ["storedamounts", clientId, customerId] as const;
const recurringKey = (clientId: number, customerId: number) => ["autoamounts", clientId, customerId] as const;
// Group Admin invalidates ["routeplans", clientId] after its changes, so this tab follows them.
const membershipsKey = (clientId: number, customerId: number) =>
  ["routeplans", clientId, "customer", customerId] as const;

/** Every code of the client above 0, by id: names the codes of stored amounts and recurring charges. */
export function useCodeLookup(clientId: number) {
  const codes = useQuery({
    queryKey: ["codes", clientId, "customer-lookup"],
    queryFn: ({ signal }) =>
      apiFetch<Page<CodeOption>>("/codes/", {
        query: { client_id: clientId, limit: MAX_PAGE_SIZE, ordering: "code" },
        signal,
      }),
  });
  const byId = new Map((codes.data?.results ?? []).map((code) => [code.id, code]));
  return { byId, isPending: codes.isPending };
}

export function useGroupOptions(clientId: number) {
  return useQuery({
    queryKey: ["routes", clientId, "customer-options"],
    queryFn: ({ signal }) =>
      apiFetch<Page<GroupOption>>("/routes/", {
        query: { client_id: clientId, ordering: "route_name", limit: MAX_PAGE_SIZE },
        signal,
      }),
  });
}

// ---- Stored amounts ----

export function useStoredAmounts(clientId: number, customerId: number) {
  return useCustomerRecords<StoredAmount>(
    clientId,
    customerId,
    "/storedamounts/",
    storedKey(clientId, customerId),
  );
}

export function useSaveStoredAmount(clientId: number, customerId: number) {
  return useSaveRecord<StoredAmount, StoredAmountBody>(clientId, "/storedamounts/", [
    storedKey(clientId, customerId),
  ]);
}

export function useDeleteStoredAmount(clientId: number, customerId: number) {
  return useDeleteRecord(clientId, "/storedamounts/", [storedKey(clientId, customerId)]);
}

// ---- Recurring charges ----

export function useRecurringCharges(clientId: number, customerId: number) {
  return useCustomerRecords<RecurringCharge>(
    clientId,
    customerId,
    "/autoamounts/",
    recurringKey(clientId, customerId),
  );
}

/** Every list a recurring charge shows in: the customer's, and the customer list's contract balance (its sum). */
const recurringKeys = (clientId: number, customerId: number) => [
  recurringKey(clientId, customerId),
  ["customers", clientId, "list"],
];

export function useSaveRecurringCharge(clientId: number, customerId: number) {
  return useSaveRecord<RecurringCharge, RecurringChargeBody>(
    clientId,
    "/autoamounts/",
    recurringKeys(clientId, customerId),
  );
}

export function useDeleteRecurringCharge(clientId: number, customerId: number) {
  return useDeleteRecord(clientId, "/autoamounts/", recurringKeys(clientId, customerId));
}

// ---- Groups ----

export function useMemberships(clientId: number, customerId: number) {
  return useQuery({
    queryKey: membershipsKey(clientId, customerId),
    queryFn: ({ signal }) =>
      apiFetch<Page<Membership>>("/routeplans/", {
        query: { client_id: clientId, customer__id: customerId },
        signal,
      }),
  });
}

/** How many customers a group has: positions run from 1 to this (plus one when adding). */
export function useGroupSize(clientId: number, groupId: number | null) {
  const members = useQuery({
    queryKey: ["routeplans", clientId, "group", groupId],
    queryFn: ({ signal }) =>
      apiFetch<Page<Membership>>("/routeplans/", { query: { client_id: clientId, route: groupId }, signal }),
    enabled: groupId !== null,
  });
  return members.data?.count ?? null;
}

// Group Admin's lists follow a membership's change too.
const membershipKeys = (clientId: number) => [
  ["routeplans", clientId],
  ["routes", clientId],
];

/** Add (id null) or change a membership; the tab reports refusals ('No group selected…') itself. */
export function useSaveMembership(clientId: number) {
  return useSaveRecord<Membership, MembershipBody>(clientId, "/routeplans/", membershipKeys(clientId), [400]);
}

export function useRemoveMembership(clientId: number) {
  return useDeleteRecord(clientId, "/routeplans/", membershipKeys(clientId));
}

// ---- One customer's list, and saving and deleting one of its records ----

type QueryKeys = readonly (readonly unknown[])[];

function useCustomerRecords<Row>(
  clientId: number,
  customerId: number,
  path: string,
  queryKey: readonly unknown[],
) {
  return useQuery({
    queryKey,
    queryFn: ({ signal }) =>
      apiFetch<Page<Row>>(path, {
        query: { client_id: clientId, customer__id: customerId, limit: MAX_PAGE_SIZE },
        signal,
      }),
  });
}

function useRefetch(keys: QueryKeys) {
  const queryClient = useQueryClient();
  return () => Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/**
 * Add (id null) or replace a record of the list at `path` ("/storedamounts/"), then refetch `keys`. The tabs
 * report the refusals they are `handles`-ed for themselves (spec: logged, form stays open).
 */
function useSaveRecord<Row, Body>(
  clientId: number,
  path: string,
  keys: QueryKeys,
  handles: ApiFetchOptions["handles"] = "all",
) {
  const refetch = useRefetch(keys);
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: Body }) =>
      apiFetch<Row>(id === null ? path : `${path}${String(id)}/`, {
        method: id === null ? "POST" : "PUT",
        query: { client_id: clientId },
        body,
        handles,
      }),
    onSuccess: refetch,
  });
}

function useDeleteRecord(clientId: number, path: string, keys: QueryKeys) {
  const refetch = useRefetch(keys);
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<void>(`${path}${String(id)}/`, { method: "DELETE", query: { client_id: clientId } }),
    onSuccess: refetch,
  });
}
