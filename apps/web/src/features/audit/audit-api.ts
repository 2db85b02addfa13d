import { readsOversight, type AuditEvent, type UserInfo } from "@cyclebill/domain";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";

/** GET /api/audit/'s filters as the screens send them (empty values are left out). */
export type AuditFilters = {
  client_id?: number | null;
  record_kind?: string;
  record_id?: string;
  customer_id?: number;
  action?: string;
  actor?: string;
  from?: string;
  to?: string;
};

export function auditQuery(filters: AuditFilters): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(filters).filter(([, value]) => value !== undefined && value !== null && value !== ""),
  ) as Record<string, string | number>;
}

/** One page of the trail, newest first; the previous page stays on screen while the next loads. */
export function useAuditEvents(filters: AuditFilters, page: number, pageSize: number, enabled = true) {
  const query = auditQuery(filters);
  return useQuery({
    queryKey: ["audit", query, page, pageSize],
    queryFn: () =>
      apiFetch<{ count: number; results: AuditEvent[] }>("/audit/", {
        query: { ...query, limit: pageSize, offset: (page - 1) * pageSize },
      }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The trail is read by the provider's admins and the client's owners (the server refuses staff). */
export function canReadAudit(user: Pick<UserInfo, "role" | "client_id">): boolean {
  return readsOversight({ role: user.role, clientId: user.client_id });
}
