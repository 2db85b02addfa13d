import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import {
  parseOrdering,
  resolvePaging,
  type JobRun,
  type JobRunListQuery,
  type Page,
} from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { jobRuns } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError, notFound } from "../../http/errors.js";
import { recordChange } from "../audit/record-change.js";

/** A run of one client: every progress write names both, as every tenant-owned key does. */
export type JobRunKey = { clientId: number; runId: number };

type JobRunRow = typeof jobRuns.$inferSelect;

export function jobRunToApi(row: JobRunRow): JobRun {
  return {
    id: row.id,
    client_id: row.clientId,
    kind: row.kind,
    status: row.status,
    total: row.total,
    done: row.done,
    failed: row.failed,
    step: row.step,
    error: row.error,
    result: (row.result as Record<string, unknown> | null) ?? null,
    created_by: row.createdByUserId,
    created: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

/** A queued run; the caller enqueues its first job in the same transaction. */
export async function createJobRun(db: Executor, tenant: TenantContext, kind: string): Promise<JobRun> {
  const [row] = await db
    .insert(jobRuns)
    .values({ clientId: tenant.clientId, kind, createdByUserId: tenant.user.id })
    .returning();
  if (!row) throw new Error("job run not created");
  await auditJobStart(db, row);
  return jobRunToApi(row);
}

/** One run of the tenant's client; another client's run is a 404 like any missing record. */
export async function getJobRun(db: Executor, tenant: TenantContext, id: number): Promise<JobRun> {
  const [row] = await db
    .select()
    .from(jobRuns)
    .where(and(eq(jobRuns.clientId, tenant.clientId), eq(jobRuns.id, id)))
    .limit(1);
  if (!row) throw notFound();
  return jobRunToApi(row);
}

const orderingFields = {
  id: jobRuns.id,
  created: jobRuns.createdAt,
  kind: jobRuns.kind,
  status: jobRuns.status,
  finished_at: jobRuns.finishedAt,
} as const;

/** The client's runs, newest first unless ordered otherwise. */
export async function listJobRuns(
  db: Executor,
  tenant: TenantContext,
  query: JobRunListQuery,
): Promise<Page<JobRun>> {
  const parsed = parseOrdering(query.ordering ?? "-created", Object.keys(orderingFields));
  if (!parsed.ok) {
    throw fieldError(
      "ordering",
      `Unknown ordering field: ${parsed.unknown.join(", ")}. Allowed: ${Object.keys(orderingFields).join(", ")}.`,
    );
  }
  const orderBy = parsed.terms.map((term) => {
    const column = orderingFields[term.field as keyof typeof orderingFields];
    return term.descending ? desc(column) : asc(column);
  });
  const conditions: SQL[] = [eq(jobRuns.clientId, tenant.clientId)];
  if (query.kind !== undefined) conditions.push(eq(jobRuns.kind, query.kind));
  if (query.status !== undefined) conditions.push(eq(jobRuns.status, query.status));
  const where = and(...conditions);
  const { limit, offset } = resolvePaging(query);
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(jobRuns)
      .where(where)
      // The id breaks ties so that pages never repeat or skip a row.
      .orderBy(...orderBy, desc(jobRuns.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(jobRuns).where(where),
  ]);
  return { count: Number(totals[0]?.total ?? 0), results: rows.map(jobRunToApi) };
}

/** The run as a worker sees it (no tenant check: the payload's key came from the API). */
export async function readJobRun(db: Executor, key: JobRunKey): Promise<JobRunRow | undefined> {
  const [row] = await db
    .select()
    .from(jobRuns)
    .where(and(eq(jobRuns.clientId, key.clientId), eq(jobRuns.id, key.runId)))
    .limit(1);
  return row;
}

/**
 * Records the plan: total items and chunk count. Only a queued run is planned, so a replayed
 * plan job learns (false) that the chunks were already enqueued in the first plan's transaction.
 */
export async function planJobRun(
  tx: Executor,
  key: JobRunKey,
  plan: { total: number; chunkCount: number; step: string },
): Promise<boolean> {
  const rows = await tx
    .update(jobRuns)
    .set({
      status: "running",
      total: plan.total,
      chunkCount: plan.chunkCount,
      step: plan.step,
      startedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobRuns.clientId, key.clientId), eq(jobRuns.id, key.runId), eq(jobRuns.status, "queued")))
    .returning({ id: jobRuns.id });
  return rows.length === 1;
}

/** Ends a running run as succeeded with the job's summary. */
export async function finishJobRun(
  tx: Executor,
  key: JobRunKey,
  result: Record<string, unknown>,
): Promise<void> {
  await tx
    .update(jobRuns)
    .set({ status: "succeeded", step: "finished", result, finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(jobRuns.clientId, key.clientId), eq(jobRuns.id, key.runId), eq(jobRuns.status, "running")));
}

/** Ends an unfinished run as failed (its job ran out of retries); a finished run stays as it is. */
export async function failJobRun(db: Executor, key: JobRunKey, error: string): Promise<void> {
  await db
    .update(jobRuns)
    .set({
      status: "failed",
      step: "failed",
      error: error.slice(0, 2000),
      finishedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(jobRuns.clientId, key.clientId),
        eq(jobRuns.id, key.runId),
        sql`${jobRuns.status} in ('queued', 'running')`,
      ),
    );
}

/** A queued run no person asked for (a schedule's), or one for a client other than the tenant's. */
export async function createJobRunFor(
  db: Executor,
  clientId: number,
  kind: string,
  createdByUserId: number | null,
): Promise<JobRun> {
  const [row] = await db.insert(jobRuns).values({ clientId, kind, createdByUserId }).returning();
  if (!row) throw new Error("job run not created");
  await auditJobStart(db, row);
  return jobRunToApi(row);
}

/** A job asked for, in its client's trail: what kind (a card run, a ledger check, a reconciliation). */
async function auditJobStart(db: Executor, row: typeof jobRuns.$inferSelect): Promise<void> {
  await recordChange(db, {
    clientId: row.clientId,
    action: "job.start",
    recordKind: "job_run",
    recordId: row.id,
    before: null,
    after: { kind: row.kind, status: row.status },
  });
}

/** A run done in one job (no chunks): its progress as it goes. Only a running run moves. */
export async function setJobRunProgress(
  db: Executor,
  key: JobRunKey,
  progress: { done: number; total: number; step: string },
): Promise<void> {
  await db
    .update(jobRuns)
    .set({ done: progress.done, total: progress.total, step: progress.step, updatedAt: sql`now()` })
    .where(and(eq(jobRuns.clientId, key.clientId), eq(jobRuns.id, key.runId), eq(jobRuns.status, "running")));
}
