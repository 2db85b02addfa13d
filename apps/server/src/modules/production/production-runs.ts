import { desc, eq, inArray, sql } from "drizzle-orm";
import {
  CLIENT_SKIP_LABELS,
  productionFiguresSchema,
  productionRunClientSchema,
  resolvePaging,
  type ClientSkipReason,
  type Page,
  type ProductionRun,
  type ProductionRunStatus,
  type RunPartAction,
  partActions,
  runActions,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbInt, dbJson, dbText, dbTimestamp } from "../../db/row-schemas.js";
import { clients, cycleRuns } from "../../db/tables.js";
import { notFound } from "../../http/errors.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import { addFigures, withAllReasons } from "./plan-production.js";
import { partRebuildWork, poolsToRebuild, type PartRebuildWork } from "../delivery/pools-to-rebuild.js";
import { deliveryStarted } from "./undo-production.js";

type CycleRunRow = typeof cycleRuns.$inferSelect;
/** A part's undo as the API shows it: its job's status, and what it removed (undone_figures). */
const partUndoSchema = productionRunClientSchema.shape.undo.unwrap();

/** A client's part of a run with its job runs, as toApi's query returns it. */
const partRowSchema = z.object({
  cycle_run_id: dbInt,
  production_run_id: dbInt,
  client_id: dbInt,
  client_name: dbText,
  period_start: dbDate,
  period_end: dbDate,
  job_run_id: dbInt.nullable(),
  autopay_job_run_id: dbInt.nullable(),
  part_status: dbText,
  job_status: dbText.nullable(),
  total: dbInt.nullable(),
  done: dbInt.nullable(),
  error: dbText.nullable(),
  // Parsed by productionFiguresSchema once its reasons are filled in (withAllReasons).
  figures: dbJson,
  finished_at: dbTimestamp.nullable(),
  undo_job_run_id: dbInt.nullable(),
  undo_status: partUndoSchema.shape.status.nullable(),
  undo_error: dbText.nullable(),
  undo_requested_by: dbInt.nullable(),
  undo_requested_by_name: dbText.nullable(),
  undo_requested_at: dbTimestamp.nullable(),
  undone_at: dbTimestamp.nullable(),
  undone_figures: partUndoSchema.shape.removed,
});
type PartRow = z.output<typeof partRowSchema>;

const emailCountRowSchema = z.object({
  client_id: dbInt,
  production_run_id: dbInt,
  status: dbText,
  count: dbInt,
});

const cycleRunIdRowSchema = z.object({ id: dbInt });

function partStatus(jobStatus: string | null): ProductionRunStatus {
  if (jobStatus === "succeeded") return "done";
  if (jobStatus === "running" || jobStatus === "failed") return jobStatus;
  return "queued";
}

/** A run's status from its clients' parts: failed if one failed, done when all are, else running or queued. */
function runStatus(parts: readonly ProductionRunStatus[]): ProductionRunStatus {
  if (parts.includes("failed")) return "failed";
  if (parts.every((status) => status === "done")) return "done";
  if (parts.some((status) => status !== "queued")) return "running";
  return "queued";
}

const NO_EMAILS = { total: 0, queued: 0, sending: 0, sent: 0, failed: 0 };

/** Each run part's statement emails by status, keyed "client/production run". */
async function emailCounts(db: Executor, parts: readonly PartRow[]) {
  const counts = new Map<string, typeof NO_EMAILS>();
  if (parts.length === 0) return counts;
  const rows = await queryRows(
    db,
    sql`select d.client_id, d.production_run_id, d.status, count(*) as count
        from statement_deliveries d
        join unnest(${sqlArray(
          parts.map((part) => part.client_id),
          "bigint",
        )},
                    ${sqlArray(
                      parts.map((part) => part.production_run_id),
                      "bigint",
                    )}) as p(client_id, run_id)
          on d.client_id = p.client_id and d.production_run_id = p.run_id
        group by 1, 2, 3`,
    emailCountRowSchema,
  );
  for (const row of rows) {
    const key = `${row.client_id}/${row.production_run_id}`;
    const entry = counts.get(key) ?? { ...NO_EMAILS };
    const count = row.count;
    entry.total += count;
    if (
      row.status === "queued" ||
      row.status === "sending" ||
      row.status === "sent" ||
      row.status === "failed"
    )
      entry[row.status] += count;
    counts.set(key, entry);
  }
  return counts;
}

/** What may be done to each part (undo) and to the run (rebuild its pools): the refusals' own rules. */
async function actionsOf(db: Executor, parts: readonly PartRow[], dataDir: string | undefined) {
  const partActionsByKey = new Map<string, RunPartAction[]>();
  const rebuildWork = new Map<number, PartRebuildWork[]>();
  for (const part of parts) {
    const key = { clientId: part.client_id, productionRunId: part.production_run_id };
    const finished = part.part_status === "done";
    const undone = part.undone_at !== null;
    const undoPending = part.undo_status === "queued" || part.undo_status === "running";
    const live = finished && !undone && !undoPending;
    const wentOut = live ? await deliveryStarted(db, key) : [];
    partActionsByKey.set(
      `${part.client_id}/${part.production_run_id}`,
      partActions({ finished, undone, undoPending, wentOut }),
    );
    if (finished && !undone) {
      const work = rebuildWork.get(part.cycle_run_id) ?? [];
      work.push(await partRebuildWork(db, dataDir, key));
      rebuildWork.set(part.cycle_run_id, work);
    }
  }
  return {
    part: (part: PartRow) => partActionsByKey.get(`${part.client_id}/${part.production_run_id}`) ?? [],
    run: (cycleRunId: number) =>
      runActions({ poolsToRebuild: poolsToRebuild(rebuildWork.get(cycleRunId) ?? []) }),
  };
}

async function toApi(
  db: Executor,
  rows: readonly CycleRunRow[],
  dataDir: string | undefined,
): Promise<ProductionRun[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const parts = await queryRows(
    db,
    sql`select p.cycle_run_id, p.id as production_run_id, p.client_id, c.client_name, p.period_start::text, p.period_end::text, p.job_run_id,
               p.autopay_job_run_id,
               p.status as part_status, j.status as job_status, j.total, j.done, j.error, p.figures,
               to_char(j.finished_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as finished_at,
               p.undo_job_run_id, u.status as undo_status, u.error as undo_error,
               p.undo_requested_by_user_id as undo_requested_by, uu.username as undo_requested_by_name,
               to_char(u.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as undo_requested_at,
               to_char(p.undone_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as undone_at,
               p.undone_figures
        from production_runs p
        join clients c on c.id = p.client_id
        left join job_runs j on j.client_id = p.client_id and j.id = p.job_run_id
        left join job_runs u on u.client_id = p.client_id and u.id = p.undo_job_run_id
        left join users uu on uu.id = p.undo_requested_by_user_id
        where p.cycle_run_id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})
        order by p.client_id`,
    partRowSchema,
  );
  const emails = await emailCounts(db, parts);
  const actions = await actionsOf(db, parts, dataDir);
  const skippedIds = [...new Set(rows.flatMap((row) => row.skipped.map((item) => item.clientId)))];
  const names = new Map(
    skippedIds.length === 0
      ? []
      : (
          await db
            .select({ id: clients.id, name: clients.clientName })
            .from(clients)
            .where(inArray(clients.id, skippedIds))
        ).map((row) => [row.id, row.name]),
  );
  return rows.map((row) => {
    const own = parts.filter((part) => part.cycle_run_id === row.id);
    const clientParts = own.map((part) => {
      const figures =
        part.figures === null ? null : productionFiguresSchema.parse(withAllReasons(part.figures));
      return {
        client_id: part.client_id,
        client_name: part.client_name,
        status: partStatus(part.job_status),
        period_start: part.period_start,
        period_end: part.period_end,
        total: part.total ?? 0,
        done: part.done ?? 0,
        job_run_id: part.job_run_id,
        error: part.error,
        figures,
        emails: emails.get(`${part.client_id}/${part.production_run_id}`) ?? { ...NO_EMAILS },
        // The card run that charged the part's autopay customers (GET /api/card-runs/{id}/).
        autopay_job_id: part.autopay_job_run_id,
        undo:
          part.undo_job_run_id === null
            ? null
            : {
                job_id: part.undo_job_run_id,
                status: part.undo_status ?? "queued",
                error: part.undo_error,
                requested_by: part.undo_requested_by,
                requested_by_name: part.undo_requested_by_name,
                requested_at: part.undo_requested_at ?? row.createdAt.toISOString(),
                undone_at: part.undone_at,
                removed: part.undone_figures,
              },
        actions: actions.part(part),
      };
    });
    const status = runStatus(clientParts.map((part) => part.status));
    return {
      id: row.id,
      cycle: row.cycle,
      run_date: row.runDate,
      status,
      total: clientParts.reduce((sum, part) => sum + part.total, 0),
      done: clientParts.reduce((sum, part) => sum + part.done, 0),
      client_ids: row.clientIds ?? null,
      clients: clientParts,
      skipped: row.skipped.map((item) => ({
        client_id: item.clientId,
        client_name: names.get(item.clientId) ?? "",
        reason: item.reason,
        label: CLIENT_SKIP_LABELS[item.reason as ClientSkipReason] ?? item.reason,
      })),
      // An undone part's figures no longer stand.
      figures: addFigures(
        clientParts.flatMap((part) => (part.figures && !part.undo?.undone_at ? [part.figures] : [])),
      ),
      started_by: row.startedByUserId,
      created: row.createdAt.toISOString(),
      finished_at:
        status === "done" || status === "failed"
          ? (own
              .map((part) => part.finished_at ?? "")
              .sort()
              .at(-1) ?? row.createdAt.toISOString())
          : null,
      actions: actions.run(row.id),
    };
  });
}

/**
 * One run. `dataDir` is where the pools' zips are: without it (a worker, a test) a ready pool's zip
 * is taken to be there when the run's actions are worked out.
 */
export async function getProductionRun(db: Executor, id: number, dataDir?: string): Promise<ProductionRun> {
  const rows = await db.select().from(cycleRuns).where(eq(cycleRuns.id, id)).limit(1);
  const [run] = await toApi(db, rows, dataDir);
  if (!run) throw notFound();
  return run;
}

/** Runs, newest first (the id breaks ties), optionally of one cycle. */
export async function listProductionRuns(
  db: Executor,
  query: { cycle?: number; limit?: number; offset?: number; page?: number },
  dataDir?: string,
): Promise<Page<ProductionRun>> {
  const where = query.cycle === undefined ? undefined : eq(cycleRuns.cycle, query.cycle);
  const { limit, offset } = resolvePaging(query);
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(cycleRuns)
      .where(where)
      .orderBy(desc(cycleRuns.createdAt), desc(cycleRuns.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ total: sql<number>`count(*)` })
      .from(cycleRuns)
      .where(where),
  ]);
  return { count: Number(totals[0]?.total ?? 0), results: await toApi(db, rows, dataDir) };
}

/** The latest run of each cycle that has one. */
export async function latestRunsByCycle(db: Executor, dataDir?: string): Promise<Map<number, ProductionRun>> {
  const rows = await queryRows(
    db,
    sql`select distinct on (cycle) id from cycle_runs order by cycle, created_at desc, id desc`,
    cycleRunIdRowSchema,
  );
  if (rows.length === 0) return new Map();
  const runs = await db
    .select()
    .from(cycleRuns)
    .where(
      inArray(
        cycleRuns.id,
        rows.map((row) => row.id),
      ),
    );
  return new Map((await toApi(db, runs, dataDir)).map((run) => [run.cycle, run]));
}
