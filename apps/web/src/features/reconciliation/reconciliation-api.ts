import type { JobRun, Reconciliation, ReconciliationSummary } from "@cyclebill/domain";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";

export function reconciliationKeys(clientId: number) {
  return ["gateway-reconciliations", clientId] as const;
}

/** The client's reconciled days, newest first (a page of 30). */
export function useReconciledDays(clientId: number | null) {
  return useQuery({
    queryKey: [...reconciliationKeys(clientId ?? 0), "list"],
    queryFn: () =>
      apiFetch<{ count: number; results: ReconciliationSummary[] }>("/gateway/reconciliations/", {
        query: { client_id: clientId, limit: 30 },
      }),
    enabled: clientId !== null,
  });
}

/** One day with its differences, found by its date (null when it was never reconciled). */
export function useReconciledDay(clientId: number | null, day: string) {
  return useQuery({
    queryKey: [...reconciliationKeys(clientId ?? 0), "day", day],
    queryFn: async () => {
      const list = await apiFetch<{ count: number; results: ReconciliationSummary[] }>(
        "/gateway/reconciliations/",
        { query: { client_id: clientId, date: day } },
      );
      const summary = list.results[0];
      if (!summary) return null;
      return apiFetch<Reconciliation>(`/gateway/reconciliations/${summary.id}/`, {
        query: { client_id: clientId },
      });
    },
    enabled: clientId !== null && /^\d{4}-\d{2}-\d{2}$/.test(day),
  });
}

export function startReconcile(clientId: number, day: string): Promise<JobRun> {
  return apiFetch<JobRun>("/gateway/reconcile/", {
    method: "POST",
    query: { client_id: clientId, date: day },
  });
}
