import type { Me, UserInfo } from "@cyclebill/domain";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";
import { useSessionToken } from "../../api/session";

// The shapes of GET /api/me/ are the server's schema's (packages/domain).
export type { UserInfo, UserRole } from "@cyclebill/domain";
export type MeResponse = Me;

export const meQueryKey = (token: string | null) => ["me", token] as const;

export async function fetchMe(signal?: AbortSignal): Promise<MeResponse> {
  try {
    // No app-wide alert: the guard shows its own retry panel, and a failed check of a stored token
    // on the login page is only logged (spec). A 401 still ends the session app-wide.
    return await apiFetch<MeResponse>("/me/", { signal, handles: "all" });
  } catch (error) {
    // Logged here rather than from component state: a 401 clears the token (and so the query's key)
    // before any component could render the error.
    if (!signal?.aborted) console.warn("Checking the stored session failed:", error);
    throw error;
  }
}

/** GET /api/me/ for the stored token; keyed by token so a new login never sees the previous user. */
export function useCurrentUser() {
  const token = useSessionToken();
  return useQuery({
    queryKey: meQueryKey(token),
    queryFn: ({ signal }) => fetchMe(signal),
    enabled: token !== null,
  });
}

export function displayName(user: UserInfo): string {
  const fromParts = `${user.firstName} ${user.lastName}`.trim();
  return user.name.trim() || fromParts || user.email;
}
