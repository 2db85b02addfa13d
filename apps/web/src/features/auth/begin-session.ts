import type { QueryClient } from "@tanstack/react-query";
import { clearSession, storeToken } from "../../api/session";
import { fetchMe, meQueryKey } from "./current-user";

/**
 * A sign-in's token in use: anything cached for a previous user is dropped, the token is stored,
 * and the user is read before any screen needs them (a failed read leaves no half session).
 */
export async function beginSession(
  queryClient: QueryClient,
  token: string,
  remember: boolean,
): Promise<void> {
  queryClient.removeQueries();
  storeToken(token, remember);
  try {
    await queryClient.fetchQuery({ queryKey: meQueryKey(token), queryFn: ({ signal }) => fetchMe(signal) });
  } catch (error) {
    clearSession();
    throw error;
  }
}
