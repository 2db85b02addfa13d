import type { UserInput } from "@cyclebill/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";
import type { UserRole } from "../auth/current-user";
import type { Page } from "@cyclebill/domain";

/** A user of a client, as GET /api/users/ lists them. */
export type ClientUser = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  name: string;
  is_active: boolean;
  is_client_staff: boolean;
  role: UserRole;
  last_login: string | null;
  login_count: number;
  created_at: string;
  has_password: boolean;
};

const usersKey = (clientId: number) => ["users", clientId] as const;

export function useClientUsers(clientId: number) {
  return useQuery({
    queryKey: usersKey(clientId),
    queryFn: ({ signal }) =>
      apiFetch<Page<ClientUser>>("/users/", { query: { client_id: clientId, limit: 500 }, signal }),
  });
}

/** Add (no id) or replace (id) a user; field errors come back to the dialog. */
export function useSaveClientUser(clientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: UserInput }) =>
      id === null
        ? apiFetch<ClientUser>("/users/", {
            method: "POST",
            query: { client_id: clientId },
            body,
            handles: [400],
          })
        : apiFetch<ClientUser>(`/users/${String(id)}/`, {
            method: "PUT",
            query: { client_id: clientId },
            body,
            handles: [400],
          }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKey(clientId) }),
  });
}

export function useDeleteClientUser(clientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<void>(`/users/${String(id)}/`, { method: "DELETE", query: { client_id: clientId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKey(clientId) }),
  });
}
