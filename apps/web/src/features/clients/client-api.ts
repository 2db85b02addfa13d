import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";

/** The fields of a client the shell needs; the list and detail calls return many more. */
export type ClientSummary = {
  id: number;
  client_no: number;
  client_name: string;
  city?: string | null;
  state?: string | null;
};

export type Paged<T> = { count: number; results: T[] };

export const TYPEAHEAD_LIMIT = 100;

export function searchClients(query: string, signal?: AbortSignal): Promise<Paged<ClientSummary>> {
  return apiFetch<Paged<ClientSummary>>("/clients/", {
    query: { query, limit: TYPEAHEAD_LIMIT, ordering: "client_name" },
    signal,
  });
}

/** One client's record, for its name in the top bar when an admin opened a link with client_id. */
export function useClientRecord(clientId: number | null) {
  return useQuery({
    queryKey: ["clients", "detail", clientId],
    queryFn: ({ signal }) => apiFetch<ClientSummary>(`/clients/${String(clientId)}/`, { signal }),
    enabled: clientId !== null,
  });
}

export function clientLabel(client: Pick<ClientSummary, "client_no" | "client_name">): string {
  return `${client.client_no} · ${client.client_name}`;
}
