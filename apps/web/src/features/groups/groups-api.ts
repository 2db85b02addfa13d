import {
  MAX_PAGE_SIZE,
  type ArchiveState,
  type BILL_INDICATOR_FLAGS,
  type GroupInput,
} from "@cyclebill/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";
import type { Page } from "@cyclebill/domain";

export type BillIndicatorFlag = (typeof BILL_INDICATOR_FLAGS)[number];

export const BILL_INDICATOR_LABELS: Record<BillIndicatorFlag, string> = {
  standard: "Standard",
  skip: "Skip",
  pause: "Pause",
};

/** A group of customers; the API calls groups routes. */
export type Group = { id: number; client: number; route_name: string };

/** A customer's place in a group. `stop` is 0-based; users see `position` (1-based). */
export type RoutePlan = {
  routeplan_id: number;
  id: number;
  route: number;
  route_name: string;
  customer: number;
  customer_no: number;
  customer_label: string;
  client_id: number;
  stop: number;
  position: number;
  bill_indicator_flag: BillIndicatorFlag;
  archive_state: ArchiveState;
};

export type GroupDetail = Group & { details: RoutePlan[] };

/** Body of POST and PUT /api/routeplans/: `stop` is the 0-based place; omitted means the end. */
export type RoutePlanBody = {
  route: number | null;
  customer: number;
  stop?: number;
  bill_indicator_flag: BillIndicatorFlag;
};

const groupsKey = (clientId: number) => ["routes", clientId] as const;
const groupKey = (clientId: number, groupId: number) => ["routes", clientId, "detail", groupId] as const;

export function useGroups(clientId: number) {
  return useQuery({
    queryKey: [...groupsKey(clientId), "list"],
    queryFn: ({ signal }) =>
      apiFetch<Page<Group>>("/routes/", {
        query: { client_id: clientId, ordering: "route_name", limit: MAX_PAGE_SIZE },
        signal,
      }),
  });
}

/** One group with its members in stop order. */
export function useGroupDetail(clientId: number, groupId: number | null) {
  return useQuery({
    queryKey: groupKey(clientId, groupId ?? 0),
    queryFn: ({ signal }) =>
      apiFetch<GroupDetail>(`/routes/${String(groupId)}/`, { query: { client_id: clientId }, signal }),
    enabled: groupId !== null,
  });
}

function useInvalidateGroups(clientId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: groupsKey(clientId) }),
      // A customer's Groups tab reads memberships by customer.
      queryClient.invalidateQueries({ queryKey: ["routeplans", clientId] }),
    ]);
}

/** Create (id null) or rename a group. */
export function useSaveGroup(clientId: number) {
  const invalidate = useInvalidateGroups(clientId);
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: GroupInput }) =>
      id === null
        ? apiFetch<Group>("/routes/", {
            method: "POST",
            query: { client_id: clientId },
            body,
            handles: [400],
          })
        : apiFetch<Group>(`/routes/${String(id)}/`, {
            method: "PUT",
            query: { client_id: clientId },
            body,
            handles: [400],
          }),
    onSuccess: invalidate,
  });
}

export function useDeleteGroup(clientId: number) {
  const invalidate = useInvalidateGroups(clientId);
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<void>(`/routes/${String(id)}/`, { method: "DELETE", query: { client_id: clientId } }),
    onSuccess: invalidate,
  });
}

/** Add a customer to a group; the screen reports refusals (no group, already a member) itself. */
export function useAddMember(clientId: number) {
  const invalidate = useInvalidateGroups(clientId);
  return useMutation({
    mutationFn: (body: RoutePlanBody) =>
      apiFetch<RoutePlan>("/routeplans/", {
        method: "POST",
        query: { client_id: clientId },
        body,
        handles: [400],
      }),
    onSuccess: invalidate,
  });
}

/** Move a member and/or change its processing status; the server renumbers the group. */
export function useUpdateMember(clientId: number) {
  const invalidate = useInvalidateGroups(clientId);
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: RoutePlanBody }) =>
      apiFetch<RoutePlan>(`/routeplans/${String(id)}/`, {
        method: "PUT",
        query: { client_id: clientId },
        body,
        handles: [400],
      }),
    onSuccess: invalidate,
  });
}

export function useRemoveMember(clientId: number) {
  const invalidate = useInvalidateGroups(clientId);
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<void>(`/routeplans/${String(id)}/`, { method: "DELETE", query: { client_id: clientId } }),
    onSuccess: invalidate,
  });
}
