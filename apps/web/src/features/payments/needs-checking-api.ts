import type { NeedsCheckingAttempt, Page, ResolveAttemptPayload, ResolvedAttempt } from "@cyclebill/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";

/** GET /api/payment-attempts/needs-checking/: attempts whose gateway answer was lost or unusable. */
export function useNeedsChecking(clientId: number) {
  return useQuery({
    queryKey: ["payments", "needs-checking", clientId],
    queryFn: ({ signal }) =>
      apiFetch<Page<NeedsCheckingAttempt>>("/payment-attempts/needs-checking/", {
        query: { client_id: clientId, limit: 100 },
        signal,
      }),
  });
}

/** POST /api/payment-attempts/{id}/resolve/: a person's verdict, with the reason. */
export function useResolveAttempt(clientId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, payload }: { id: number; payload: ResolveAttemptPayload }) =>
      apiFetch<ResolvedAttempt>(`/payment-attempts/${String(id)}/resolve/`, {
        method: "POST",
        query: { client_id: clientId },
        body: payload,
        handles: [400, 409],
      }),
    // Every payments list and the customers' balances may change ("charged" posts a payment).
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
