import type { ChangePasswordInput, Page, Session } from "@cyclebill/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";

/** One user's sessions (undefined: the signed-in user's own). */
const sessionsKey = (userId: number | undefined) => ["sessions", userId ?? "mine"] as const;

export function useSessions(userId?: number) {
  return useQuery({
    queryKey: sessionsKey(userId),
    queryFn: ({ signal }) => apiFetch<Page<Session>>("/sessions/", { query: { user_id: userId }, signal }),
  });
}

export function useEndSession(userId?: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<Session>(`/sessions/${String(id)}/end/`, { method: "POST" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey(userId) }),
  });
}

/** "Sign out everywhere else". */
export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ ended: number }>("/sessions/end-others/", { method: "POST" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey(undefined) }),
  });
}

/** Field errors (a wrong current password, a weak new one) come back to the form. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePasswordInput) =>
      apiFetch<{ success: true; ended_sessions: number }>("/me/password/", {
        method: "POST",
        body,
        handles: [400, 429],
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKey(undefined) }),
  });
}
