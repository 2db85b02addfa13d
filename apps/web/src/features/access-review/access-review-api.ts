import type { AccessReviewRecord, AccessReviewUser, Page } from "@cyclebill/domain";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";

/** The client reviewed; null: provider-wide (admins only). */
export type ReviewScope = { clientId: number | null };

const scopeQuery = (scope: ReviewScope) => (scope.clientId === null ? {} : { client_id: scope.clientId });

/** One page of the scope's users, in the order asked for. */
export function useAccessReview(
  scope: ReviewScope,
  paging: { page: number; pageSize: number; ordering: string },
  enabled = true,
) {
  const query = {
    ...scopeQuery(scope),
    ordering: paging.ordering,
    limit: paging.pageSize,
    offset: (paging.page - 1) * paging.pageSize,
  };
  return useQuery({
    queryKey: ["access-review", "users", query],
    queryFn: ({ signal }) => apiFetch<Page<AccessReviewUser>>("/access-review/", { query, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The CSV's query: every user of the scope, in the table's order. */
export function accessReviewCsvQuery(scope: ReviewScope, ordering: string) {
  return { ...scopeQuery(scope), ordering, format: "csv" };
}

const recordsKey = (scope: ReviewScope) => ["access-review", "records", scope.clientId ?? "provider"];

/** The scope's past reviews, newest first. */
export function useAccessReviewRecords(scope: ReviewScope, page: number, pageSize: number, enabled = true) {
  const query = { ...scopeQuery(scope), limit: pageSize, offset: (page - 1) * pageSize };
  return useQuery({
    queryKey: [...recordsKey(scope), page, pageSize],
    queryFn: ({ signal }) => apiFetch<Page<AccessReviewRecord>>("/access-review/reviews/", { query, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** "Record review": kept with who and when; the list of past reviews reloads. */
export function useRecordAccessReview(scope: ReviewScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (note: string) =>
      apiFetch<AccessReviewRecord>("/access-review/reviews/", {
        method: "POST",
        body: { ...scopeQuery(scope), note },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: recordsKey(scope) }),
  });
}
