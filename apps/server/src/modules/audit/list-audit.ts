import { and, asc, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { parseOrdering, resolvePaging, type AuditEvent, type AuditListQuery } from "@cyclebill/domain";
import { currentClock } from "../../clock.js";
import type { Database } from "../../db/database.js";
import { auditEvents } from "../../db/tables.js";
import { roleOf, type AuthContext } from "../../http/auth-context.js";
import { fieldError, forbidden, notFound } from "../../http/errors.js";
import { PROVIDER_CHAIN } from "./record-audit.js";

export const AUDIT_FORBIDDEN_DETAIL =
  "Only the client's owners and the provider's admins read the audit trail.";

const ORDERING = { at: auditEvents.at, seq: auditEvents.seq } as const;

/**
 * Which chain(s) a reader may read: a provider admin every client's and the provider's (or the one
 * named by client_id); an owner only their own client's (another client answers 404, as everywhere);
 * staff none (PCI DSS 10.3.1: read access to the trail only where the job needs it).
 */
function readableChain(auth: AuthContext, requested: number | undefined): number | undefined {
  const { user } = auth;
  if (user.isAdmin) return requested;
  if (user.clientId === null || roleOf(user) === "staff") throw forbidden(AUDIT_FORBIDDEN_DETAIL);
  if (requested !== undefined && requested !== user.clientId) throw notFound();
  return user.clientId;
}

function filtersOf(query: AuditListQuery, clientId: number | undefined): SQL[] {
  const timeZone = currentClock().timeZone;
  const day = sql`(${auditEvents.at} at time zone ${timeZone})::date`;
  const filters: (SQL | undefined)[] = [
    clientId === undefined ? undefined : eq(auditEvents.clientId, clientId),
    query.record_kind ? eq(auditEvents.recordKind, query.record_kind) : undefined,
    query.record_id ? eq(auditEvents.recordId, query.record_id) : undefined,
    query.customer_id ? eq(auditEvents.customerId, query.customer_id) : undefined,
    query.action ? eq(auditEvents.action, query.action) : undefined,
    query.from ? sql`${day} >= ${query.from}::date` : undefined,
    query.to ? sql`${day} <= ${query.to}::date` : undefined,
  ];
  if (query.actor) {
    const byName = ilike(auditEvents.actorLabel, `%${query.actor.replace(/[\\%_]/g, "\\$&")}%`);
    filters.push(
      /^\d{1,15}$/.test(query.actor) ? or(byName, eq(auditEvents.actorUserId, Number(query.actor))) : byName,
    );
  }
  return filters.filter((filter): filter is SQL => filter !== undefined);
}

/** The trail, newest first unless ordered otherwise, paged by the server. */
export async function listAuditEvents(
  db: Database,
  auth: AuthContext,
  query: AuditListQuery,
): Promise<{ count: number; results: AuditEvent[] }> {
  const clientId = readableChain(auth, query.client_id);
  const ordering = parseOrdering(query.ordering ?? "-at", Object.keys(ORDERING));
  if (!ordering.ok)
    throw fieldError(
      "ordering",
      `Unknown ordering field: ${ordering.unknown.join(", ")}. Allowed: ${Object.keys(ORDERING).join(", ")}.`,
    );
  const { limit, offset } = resolvePaging(query);
  const where = and(...filtersOf(query, clientId));
  const order = ordering.terms.map((term) => {
    const column = ORDERING[term.field as keyof typeof ORDERING];
    return term.descending ? desc(column) : asc(column);
  });
  // Ties (one transaction's rows share their time) keep the chain's order.
  const tieBreak = ordering.terms[0]?.descending === false ? asc(auditEvents.seq) : desc(auditEvents.seq);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditEvents)
      .where(where)
      .orderBy(...order, tieBreak, asc(auditEvents.clientId))
      .limit(limit)
      .offset(offset),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(where),
  ]);
  return {
    count: total?.count ?? 0,
    results: rows.map((row) => ({
      client_id: row.clientId === PROVIDER_CHAIN ? null : row.clientId,
      seq: row.seq,
      at: row.at.toISOString(),
      actor: row.actorLabel,
      actor_kind: row.actorKind,
      actor_user_id: row.actorUserId,
      address: row.address,
      user_agent: row.userAgent,
      action: row.action,
      record_kind: row.recordKind,
      record_id: row.recordId,
      customer_id: row.customerId,
      changes: row.changes.map(([field, before, after]) => ({ field, before, after })),
      reason: row.reason,
    })),
  };
}
