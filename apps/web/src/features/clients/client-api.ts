import type { Page } from "@cyclebill/domain";
import type { ClientCreateInput, ClientHoldings, ClientUpdate } from "@cyclebill/domain";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";
import type { ClientRecord } from "./client-record";

/** The fields of a client the shell needs; the list and detail calls return many more. */
export type ClientSummary = {
  id: number;
  client_no: number;
  client_name: string;
  city?: string | null;
  state?: string | null;
  /** Whether the client has a payment gateway key (payment buttons and autopay need one). */
  has_blue_pay_key?: boolean;
};

export const TYPEAHEAD_LIMIT = 100;

export function searchClients(query: string, signal?: AbortSignal): Promise<Page<ClientSummary>> {
  return apiFetch<Page<ClientSummary>>("/clients/", {
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

export type ClientListParams = { query: string; limit: number; offset: number; ordering: string };

/** The client list (admins): filtered, sorted and paged by the server. */
export function useClientList(params: ClientListParams) {
  return useQuery({
    queryKey: ["clients", "list", params],
    queryFn: ({ signal }) =>
      apiFetch<Page<ClientRecord>>("/clients/", {
        query: {
          query: params.query || null,
          limit: params.limit,
          offset: params.offset,
          ordering: params.ordering,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** Every field of one client, for the editor. Shares its cache entry with useClientRecord. */
export function useClientDetail(clientId: number) {
  return useQuery({
    queryKey: ["clients", "detail", clientId],
    queryFn: ({ signal }) => apiFetch<ClientRecord>(`/clients/${String(clientId)}/`, { signal }),
  });
}

export function useCreateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ClientCreateInput) =>
      apiFetch<ClientRecord>("/clients/", { method: "POST", body, handles: [400] }),
    onSuccess: (client) => {
      queryClient.setQueryData(["clients", "detail", client.id], client);
      void queryClient.invalidateQueries({ queryKey: ["clients", "list"] });
      void queryClient.invalidateQueries({ queryKey: ["clients", "typeahead"] });
    },
  });
}

/** What a client holds, for the delete dialog (admins): loaded fresh each time it opens. */
export function useClientHoldings(clientId: number | null) {
  return useQuery({
    queryKey: ["clients", "holdings", clientId],
    queryFn: ({ signal }) => apiFetch<ClientHoldings>(`/clients/${String(clientId)}/holdings/`, { signal }),
    enabled: clientId !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

export function useDeleteClient() {
  const queryClient = useQueryClient();
  return useMutation({
    // A 409 (it holds books after all) is shown in the dialog.
    mutationFn: (clientId: number) =>
      apiFetch<void>(`/clients/${String(clientId)}/`, { method: "DELETE", handles: [409] }),
    onSuccess: (_result, clientId) => {
      queryClient.removeQueries({ queryKey: ["clients", "detail", clientId] });
      void queryClient.invalidateQueries({ queryKey: ["clients", "list"] });
      void queryClient.invalidateQueries({ queryKey: ["clients", "typeahead"] });
    },
  });
}

/** The editor's save (PUT, full body). The editor reports every failure itself. */
export function useUpdateClient(clientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ClientUpdate & { change_reason?: string }) =>
      apiFetch<ClientRecord>(`/clients/${String(clientId)}/`, { method: "PUT", body, handles: "all" }),
    onSuccess: (client) => {
      queryClient.setQueryData(["clients", "detail", clientId], client);
      void queryClient.invalidateQueries({ queryKey: ["clients", "list"] });
      void queryClient.invalidateQueries({ queryKey: ["clients", "typeahead"] });
      // The bell shows the client message; the top bar shows the name (from /me/ for non-admins).
      void queryClient.invalidateQueries({ queryKey: ["messages"] });
      void queryClient.invalidateQueries({ queryKey: ["me"] });
    },
  });
}
