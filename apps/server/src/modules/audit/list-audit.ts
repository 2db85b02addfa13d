import { and, asc, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import {
  parseOrdering,
  readsOversight,
  resolvePaging,
  type AuditEvent,
  type AuditListQuery,
} from "@cyclebill/domain";
import { businessToday, currentClock } from "../../clock.js";
import type { Database } from "../../db/database.js";
import { auditEvents } from "../../db/tables.js";
import { roleOf, type AuthContext } from "../../http/auth-context.js";
import { fieldError, forbidden, nonFieldError, notFound } from "../../http/errors.js";
import { toCsvLines } from "../reports/report-csv.js";
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
  if (!readsOversight({ role: roleOf(user), clientId: user.clientId }))
    throw forbidden(AUDIT_FORBIDDEN_DETAIL);
  if (requested !== undefined && requested !== user.clientId) throw notFound();
  // An owner who reads oversight has a client (readsOversight).
  return user.clientId ?? undefined;
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

/** The trail's rows for a query: which chain(s), filters and order. */
function auditSelection(auth: AuthContext, query: AuditListQuery) {
  const clientId = readableChain(auth, query.client_id);
  const ordering = parseOrdering(query.ordering ?? "-at", Object.keys(ORDERING));
  if (!ordering.ok)
    throw fieldError(
      "ordering",
      `Unknown ordering field: ${ordering.unknown.join(", ")}. Allowed: ${Object.keys(ORDERING).join(", ")}.`,
    );
  const where = and(...filtersOf(query, clientId));
  const order = ordering.terms.map((term) => {
    const column = ORDERING[term.field as keyof typeof ORDERING];
    return term.descending ? desc(column) : asc(column);
  });
  // Ties (one transaction's rows share their time) keep the chain's order.
  const tieBreak = ordering.terms[0]?.descending === false ? asc(auditEvents.seq) : desc(auditEvents.seq);
  return { where, orderBy: [...order, tieBreak, asc(auditEvents.clientId)] };
}

function toAuditEvent(row: typeof auditEvents.$inferSelect): AuditEvent {
  return {
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
  };
}

/** The trail, newest first unless ordered otherwise, paged by the server. */
export async function listAuditEvents(
  db: Database,
  auth: AuthContext,
  query: AuditListQuery,
): Promise<{ count: number; results: AuditEvent[] }> {
  const { where, orderBy } = auditSelection(auth, query);
  const { limit, offset } = resolvePaging(query);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditEvents)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(where),
  ]);
  return { count: total?.count ?? 0, results: rows.map(toAuditEvent) };
}

/** Rows a CSV holds at most: narrower filters beyond that (a month, a client). */
export const AUDIT_CSV_MAX_ROWS = 100_000;
const CSV_BATCH = 5_000;
const CSV_COLUMNS = [
  "at",
  "client_id",
  "seq",
  "actor",
  "actor_kind",
  "address",
  "user_agent",
  "action",
  "record_kind",
  "record_id",
  "customer_id",
  "reason",
  "field",
  "before",
  "after",
] as const;

/** Every matching row as CSV (not one page), one line per changed field, in the list's order. */
export async function auditCsv(
  db: Database,
  auth: AuthContext,
  query: AuditListQuery,
): Promise<{ fileName: string; content: Buffer }> {
  const { where, orderBy } = auditSelection(auth, query);
  // One snapshot for the count and every batch: rows written while the file is made (the export's
  // own reads write none, but every other request does) cannot shift a batch and repeat a row.
  const lines = await db.transaction(
    async (tx) => {
      const [total] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(auditEvents)
        .where(where);
      if ((total?.count ?? 0) > AUDIT_CSV_MAX_ROWS)
        throw nonFieldError(
          `The CSV holds at most ${AUDIT_CSV_MAX_ROWS.toLocaleString("en-US")} changes; narrow the dates or pick a client.`,
        );
      const lines: unknown[][] = [[...CSV_COLUMNS]];
      for (let offset = 0; ; offset += CSV_BATCH) {
        const rows = await tx
          .select()
          .from(auditEvents)
          .where(where)
          .orderBy(...orderBy)
          .limit(CSV_BATCH)
          .offset(offset);
        for (const event of rows.map(toAuditEvent)) {
          const head = [
            event.at,
            event.client_id,
            event.seq,
            event.actor,
            event.actor_kind,
            event.address,
            event.user_agent,
            event.action,
            event.record_kind,
            event.record_id,
            event.customer_id,
            event.reason,
          ];
          if (event.changes.length === 0) lines.push([...head, null, null, null]);
          for (const change of event.changes)
            lines.push([...head, change.field, change.before, change.after]);
        }
        if (rows.length < CSV_BATCH) break;
      }
      return lines;
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
  return { fileName: `audit-trail-${businessToday()}.csv`, content: Buffer.from(toCsvLines(lines), "utf8") };
}
