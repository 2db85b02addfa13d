import type { MarkedHandled, MarkHandled, Page, WorkItem } from "@cyclebill/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";

/** GET /api/work-queue/: what needs a person (every client's when `clientId` is null, admins). */
export function useWorkQueue(clientId: number | null) {
  return useQuery({
    queryKey: ["work-queue", clientId],
    queryFn: ({ signal }) =>
      apiFetch<Page<WorkItem>>("/work-queue/", {
        query: clientId === null ? { limit: 500 } : { client_id: clientId, limit: 500 },
        signal,
      }),
  });
}

/** POST /api/work-queue/handled/: a return, a decline or a failed email followed up by hand. */
export function useMarkHandled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ clientId, payload }: { clientId: number; payload: MarkHandled }) =>
      apiFetch<MarkedHandled>("/work-queue/handled/", {
        method: "POST",
        query: { client_id: clientId },
        body: payload,
        handles: [400, 404],
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["work-queue"] }),
  });
}
