import type {
  JobRun,
  Page,
  ProductionClientPreview,
  ProductionCustomerPreview,
  ProductionCycleSummary,
  ProductionCyclePreview,
  PoolRecord,
  ProductionRun,
} from "@cyclebill/domain";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";

// Admin production: previews (GET dailyproduction…), runs (POST cycle, GET productionruns).

export function useProductionCycles() {
  return useQuery({
    queryKey: ["production", "cycles"],
    queryFn: ({ signal }) =>
      apiFetch<{ count: number; results: ProductionCycleSummary[] }>("/dailyproduction/", { signal }),
  });
}

/** The cycle's preview; `catchUp` asks for it as the run's catch-up option would bill first runs. */
export function useCyclePreview(
  cycle: number,
  runDate: string,
  options: { catchUp?: boolean; enabled?: boolean } = {},
) {
  const catchUp = options.catchUp ?? false;
  return useQuery({
    queryKey: ["production", "preview", cycle, runDate, catchUp],
    enabled: options.enabled ?? true,
    queryFn: ({ signal }) =>
      apiFetch<ProductionCyclePreview>(`/dailyproduction/cycle/${cycle}/`, {
        query: { run_date: runDate, ...(catchUp ? { catch_up: "true" } : {}) },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useClientPreview(clientId: number | null, runDate: string, offset: number, limit: number) {
  return useQuery({
    queryKey: ["production", "client", clientId, runDate, offset, limit],
    enabled: clientId !== null,
    queryFn: ({ signal }) =>
      apiFetch<ProductionClientPreview>(`/dailyproduction/client/${clientId}/`, {
        query: { run_date: runDate, offset, limit },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useCustomerPreview(clientId: number | null, customerId: number | null, runDate: string) {
  return useQuery({
    queryKey: ["production", "customer", clientId, customerId, runDate],
    enabled: clientId !== null && customerId !== null,
    queryFn: ({ signal }) =>
      apiFetch<ProductionCustomerPreview>(`/dailyproduction/client/${clientId}/customers/${customerId}/`, {
        query: { run_date: runDate },
        signal,
      }),
  });
}

const isFinished = (run: ProductionRun | undefined) => run?.status === "done" || run?.status === "failed";
const emailsPending = (run: ProductionRun | undefined) =>
  run?.clients.some((client) => client.emails.queued + client.emails.sending > 0) ?? false;
const undoPending = (run: ProductionRun | undefined) =>
  run?.clients.some((client) => client.undo?.status === "queued" || client.undo?.status === "running") ??
  false;

/**
 * One run, polled every second while it is queued or running (the progress bar). When it is first
 * seen finished, the history, the cycle list and the previews are read again: they now show the
 * run's results.
 */
export function useProductionRun(id: number | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ["production", "run", id],
    enabled: id !== null,
    queryFn: async ({ signal }) => {
      const previous = queryClient.getQueryData<ProductionRun>(["production", "run", id]);
      const run = await apiFetch<ProductionRun>(`/productionruns/${id}/`, { signal });
      // Also when the first read already finds it finished: a short run can end before it. An undo
      // that just finished took its pools and statements away: the lists are read again too.
      if (
        (isFinished(run) && (!previous || !isFinished(previous))) ||
        (undoPending(previous) && !undoPending(run))
      ) {
        void queryClient.invalidateQueries({
          queryKey: ["production"],
          predicate: (query) => query.queryKey[1] !== "run",
        });
      }
      return run;
    },
    // After the run, its statement emails go out: their counts keep moving for a while.
    refetchInterval: (query) =>
      !isFinished(query.state.data) || undoPending(query.state.data)
        ? 1000
        : emailsPending(query.state.data)
          ? 2000
          : false,
  });
}

export function useProductionRuns(limit: number) {
  return useQuery({
    queryKey: ["production", "runs", limit],
    queryFn: ({ signal }) => apiFetch<Page<ProductionRun>>("/productionruns/", { query: { limit }, signal }),
  });
}

export function useStartRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { cycle: number; runDate: string; clientIds?: number[]; catchUp?: boolean }) =>
      apiFetch<ProductionRun>(`/dailyproduction/cycle/${input.cycle}/`, {
        method: "POST",
        body: {
          run_date: input.runDate,
          ...(input.clientIds ? { client_ids: input.clientIds } : {}),
          ...(input.catchUp ? { catch_up: true } : {}),
        },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["production"] }),
  });
}

const poolsBuilding = (page: Page<PoolRecord> | undefined) =>
  page?.results.some((pool) => pool.state === "building") ?? false;

/** The newest pools, polled every second while one builds (its progress bar). */
export function usePools(limit: number) {
  return useQuery({
    queryKey: ["production", "pools", limit],
    queryFn: ({ signal }) => apiFetch<Page<PoolRecord>>("/pools/", { query: { limit }, signal }),
    refetchInterval: (query) => (poolsBuilding(query.state.data) ? 1000 : false),
  });
}

export function useDeletePool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiFetch<void>(`/pools/${encodeURIComponent(name)}/`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["production", "pools"] }),
  });
}

/** Undo one client's part of a run (202 with the undo job); the run is then polled until it is undone. */
export function useUndoRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { runId: number; clientId: number; reason: string }) =>
      apiFetch<JobRun>(`/productionruns/${input.runId}/undo/`, {
        method: "POST",
        query: { client_id: input.clientId },
        body: { reason: input.reason },
        handles: [409],
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["production"] }),
  });
}

/** Rebuilds a run's failed, deleted and missing pools from its statements; a 409 (nothing to rebuild) is shown by the caller. */
export function useRebuildPools() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (runId: number) =>
      apiFetch<Page<PoolRecord>>(`/productionruns/${String(runId)}/rebuild_pools/`, {
        method: "POST",
        handles: [409],
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["production", "pools"] }),
  });
}
