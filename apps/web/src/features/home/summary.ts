import type { ClientSummary } from "@cyclebill/domain";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";

/** GET /api/summary-data/client/{id}, as the server's schema says (packages/domain). */
export type ClientSummaryData = ClientSummary;

export function useClientSummary(clientId: number | null) {
  return useQuery({
    queryKey: ["summary", clientId],
    queryFn: ({ signal }) =>
      apiFetch<ClientSummaryData>(`/summary-data/client/${String(clientId)}`, { signal }),
    enabled: clientId !== null,
  });
}
