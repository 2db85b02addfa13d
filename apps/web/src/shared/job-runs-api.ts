import type { JobRun, JobRunListQuery } from "@cyclebill/domain";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../api/api-client";

/** A run is finished once it succeeded or failed; until then progress bars keep polling it. */
export function isFinished(run: JobRun): boolean {
  return run.status === "succeeded" || run.status === "failed";
}

export function jobRunQueryKey(clientId: number, id: number) {
  return ["job-runs", clientId, id] as const;
}

/** One job run, polled every second while it is queued or running. */
export function useJobRun(clientId: number, id: number | null) {
  return useQuery({
    queryKey: jobRunQueryKey(clientId, id ?? 0),
    queryFn: () => apiFetch<JobRun>(`/jobs/${id}/`, { query: { client_id: clientId } }),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data) ? false : 1000),
  });
}

/** The client's latest run of a kind, so a page opened (or reloaded) mid-run shows it. */
export function useLatestJobRun(clientId: number, kind: string) {
  const query: JobRunListQuery = { kind, ordering: "-created", limit: 1 };
  return useQuery({
    queryKey: ["job-runs", clientId, "latest", kind],
    queryFn: async () =>
      (
        await apiFetch<{ count: number; results: JobRun[] }>("/jobs/", {
          query: { client_id: clientId, ...query },
        })
      ).results[0] ?? null,
  });
}

export function startLedgerCheck(clientId: number): Promise<JobRun> {
  return apiFetch<JobRun>("/jobs/ledger-check/", { method: "POST", query: { client_id: clientId } });
}
