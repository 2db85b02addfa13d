import type {
  ProductionHold,
  ProductionSchedule,
  ProductionScheduleList,
  ScheduledCycle,
  ScheduledCycleList,
} from "@cyclebill/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";

// Scheduled cycles: each cycle day's time and approval, held clients, today's scheduled runs.

const busy = (list: ScheduledCycleList | undefined) =>
  list?.results.some((item) => item.state === "running") ?? false;

/** Today's scheduled cycles; polled every few seconds while one runs, and each minute otherwise. */
export function useScheduledCycles() {
  return useQuery({
    queryKey: ["production", "scheduled"],
    queryFn: ({ signal }) => apiFetch<ScheduledCycleList>("/production/scheduled/", { signal }),
    refetchInterval: (query) => (busy(query.state.data) ? 2000 : 60_000),
  });
}

export function useSchedules() {
  return useQuery({
    queryKey: ["production", "schedules"],
    queryFn: ({ signal }) => apiFetch<ProductionScheduleList>("/production/schedules/", { signal }),
  });
}

export function useSetSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { cycle: number; runTime: string; requiresApproval: boolean }) =>
      apiFetch<ProductionSchedule>(`/production/schedules/${input.cycle}/`, {
        method: "PUT",
        body: { run_time: input.runTime, requires_approval: input.requiresApproval },
        handles: [400],
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["production"] }),
  });
}

export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cycle: number) => apiFetch<void>(`/production/schedules/${cycle}/`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["production"] }),
  });
}

export function useHolds() {
  return useQuery({
    queryKey: ["production", "holds"],
    queryFn: ({ signal }) =>
      apiFetch<{ count: number; results: ProductionHold[] }>("/production/holds/", { signal }),
  });
}

export function useSetHold() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { clientId: number; reason: string }) =>
      apiFetch<ProductionHold>(`/production/holds/${input.clientId}/`, {
        method: "PUT",
        body: { reason: input.reason },
        handles: [400],
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["production"] }),
  });
}

export function useClearHold() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (clientId: number) => apiFetch<void>(`/production/holds/${clientId}/`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["production"] }),
  });
}

export function useApproveScheduledRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<ScheduledCycle>(`/production/scheduled/${id}/approve/`, { method: "POST" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["production"] }),
  });
}
