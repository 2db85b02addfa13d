import type { CodeMatch } from "../../shared/codes";
import { MAX_PAGE_SIZE, type RecurringFrequency } from "@cyclebill/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";
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
export type UnitOfMeasure = { id: number; name: string };
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

/** The catalogue's fallback when the units cannot be fetched. */
export const FALLBACK_UNITS: readonly UnitOfMeasure[] = [
  { id: 1, name: "Each" },
  { id: 2, name: "Box" },
];

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

/** Units for quantities; a failed fetch falls back to Each and Box without an alert (spec section 8). */
export function useUnitsOfMeasure(): readonly UnitOfMeasure[] {
  const units = useQuery({
    queryKey: ["unitofmeasure"],
    queryFn: ({ signal }) => apiFetch<Page<UnitOfMeasure>>("/unitofmeasure", { signal, handles: "all" }),
    retry: false,
    staleTime: 10 * 60_000,
  });
  if (units.isError || (units.data && units.data.results.length === 0)) return FALLBACK_UNITS;
  return units.data?.results ?? FALLBACK_UNITS;
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
  return useQuery({
    queryKey: storedKey(clientId, customerId),
    queryFn: ({ signal }) =>
      apiFetch<Page<StoredAmount>>("/storedamounts/", {
        query: { client_id: clientId, customer__id: customerId, limit: MAX_PAGE_SIZE },
        signal,
      }),
  });
}

/** Add (id null), replace or delete a stored amount. The tab reports failures itself (spec: logged, form stays open). */
export function useSaveStoredAmount(clientId: number, customerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: StoredAmountBody }) =>
      id === null
        ? apiFetch<StoredAmount>("/storedamounts/", {
            method: "POST",
            query: { client_id: clientId },
            body,
            handles: "all",
          })
        : apiFetch<StoredAmount>(`/storedamounts/${String(id)}/`, {
            method: "PUT",
            query: { client_id: clientId },
            body,
            handles: "all",
          }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storedKey(clientId, customerId) }),
  });
}

export function useDeleteStoredAmount(clientId: number, customerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<void>(`/storedamounts/${String(id)}/`, { method: "DELETE", query: { client_id: clientId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storedKey(clientId, customerId) }),
  });
}

// ---- Recurring charges ----

export function useRecurringCharges(clientId: number, customerId: number) {
  return useQuery({
    queryKey: recurringKey(clientId, customerId),
    queryFn: ({ signal }) =>
      apiFetch<Page<RecurringCharge>>("/autoamounts/", {
        query: { client_id: clientId, customer__id: customerId, limit: MAX_PAGE_SIZE },
        signal,
      }),
  });
}

export function useSaveRecurringCharge(clientId: number, customerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: RecurringChargeBody }) =>
      id === null
        ? apiFetch<RecurringCharge>("/autoamounts/", {
            method: "POST",
            query: { client_id: clientId },
            body,
            handles: "all",
          })
        : apiFetch<RecurringCharge>(`/autoamounts/${String(id)}/`, {
            method: "PUT",
            query: { client_id: clientId },
            body,
            handles: "all",
          }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: recurringKey(clientId, customerId) }),
        // The list's contract balance sums the recurring charges.
        queryClient.invalidateQueries({ queryKey: ["customers", clientId, "list"] }),
      ]),
  });
}

export function useDeleteRecurringCharge(clientId: number, customerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<void>(`/autoamounts/${String(id)}/`, { method: "DELETE", query: { client_id: clientId } }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: recurringKey(clientId, customerId) }),
        queryClient.invalidateQueries({ queryKey: ["customers", clientId, "list"] }),
      ]),
  });
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

function useInvalidateMemberships(clientId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ["routeplans", clientId] }),
      // Group Admin's lists.
      queryClient.invalidateQueries({ queryKey: ["routes", clientId] }),
    ]);
}

/** Add (id null) or change a membership; the tab reports refusals ('No group selected…') itself. */
export function useSaveMembership(clientId: number) {
  const invalidate = useInvalidateMemberships(clientId);
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: MembershipBody }) =>
      id === null
        ? apiFetch<Membership>("/routeplans/", {
            method: "POST",
            query: { client_id: clientId },
            body,
            handles: [400],
          })
        : apiFetch<Membership>(`/routeplans/${String(id)}/`, {
            method: "PUT",
            query: { client_id: clientId },
            body,
            handles: [400],
          }),
    onSuccess: invalidate,
  });
}

export function useRemoveMembership(clientId: number) {
  const invalidate = useInvalidateMemberships(clientId);
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<void>(`/routeplans/${String(id)}/`, { method: "DELETE", query: { client_id: clientId } }),
    onSuccess: invalidate,
  });
}
