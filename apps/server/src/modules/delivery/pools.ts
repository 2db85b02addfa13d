import { open, type FileHandle } from "node:fs/promises";
import { sql, type SQL } from "drizzle-orm";
import {
  POOL_FILES_MISSING_MESSAGE,
  POOL_FULFILMENT_LABELS,
  POOL_WITHDRAWN_MESSAGE,
  poolActions,
  poolDownloadRefusal,
  poolZipName,
  poolSchema,
  resolvePaging,
  type Page,
  type PoolListQuery,
  type PoolRecord,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Database, Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt, dbText } from "../../db/row-schemas.js";
import { HttpError, notFound } from "../../http/errors.js";
import { poolFiles, removePoolFiles } from "./pool-files.js";
import { recordChange } from "../audit/record-change.js";
import { claimWentOut, settleWentOut } from "./went-out.js";

/** A pool as SELECT reads it: the record's columns but for its label, with the table's count names. */
const poolRowSchema = poolSchema
  .omit({ fulfilment_label: true, statements: true, pages: true, actions: true })
  .extend({
    id: dbInt,
    cycle: dbInt.nullable(),
    client_id: dbInt.nullable(),
    client_no: dbInt.nullable(),
    client_name: dbText.nullable(),
    /** The run part's id (pools belong to a client's part); the API names the run's (`run_id`). */
    production_run_id: dbInt.nullable(),
    run_id: dbInt.nullable(),
    statements_count: dbInt,
    pages_count: dbInt,
    done: dbInt,
    file_bytes: dbInt.nullable(),
  });
type PoolRow = z.output<typeof poolRowSchema>;
const countRowSchema = z.object({ count: dbInt });

const iso = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

const SELECT = sql`select p.id, p.pool_name, p.pool_date::text as pool_date, p.cycle, p.client_id, c.client_no,
                          c.client_name, p.production_run_id, r.cycle_run_id as run_id, p.fulfilment, p.state, p.statements_count,
                          p.pages_count, p.done, p.file_bytes, p.error, ${iso("p.created_at")} as created,
                          ${iso("p.finished_at")} as finished
                   from pools p left join clients c on c.id = p.client_id
                   left join production_runs r on r.client_id = p.client_id and r.id = p.production_run_id`;

function toApi(row: PoolRow): PoolRecord {
  return {
    id: row.id,
    pool_name: row.pool_name,
    pool_date: row.pool_date,
    cycle: row.cycle,
    client_id: row.client_id,
    client_no: row.client_no,
    client_name: row.client_name ?? "",
    // The run as GET /api/productionruns/{id}/ names it, as the list's filter takes it.
    production_run_id: row.run_id,
    fulfilment: row.fulfilment,
    fulfilment_label: POOL_FULFILMENT_LABELS[row.fulfilment],
    state: row.state,
    statements: row.statements_count,
    pages: row.pages_count,
    done: row.done,
    file_bytes: row.file_bytes,
    error: row.error,
    created: row.created,
    finished: row.finished,
    actions: poolActions(row.state),
  };
}

const ORDERINGS: Record<string, SQL> = {
  pool_date: sql`p.pool_date, p.id`,
  "-pool_date": sql`p.pool_date desc, p.id desc`,
  pool_name: sql`p.pool_name`,
  "-pool_name": sql`p.pool_name desc`,
  id: sql`p.id`,
  "-id": sql`p.id desc`,
};

/** Pools, newest first: by client, date, cycle or run. */
export async function listPools(db: Executor, query: PoolListQuery): Promise<Page<PoolRecord>> {
  const filters: SQL[] = [sql`true`];
  if (query.client_id !== undefined) filters.push(sql`p.client_id = ${query.client_id}`);
  if (query.pool_date !== undefined) filters.push(sql`p.pool_date = ${query.pool_date}::date`);
  if (query.cycle !== undefined) filters.push(sql`p.cycle = ${query.cycle}`);
  // The run's id as the API names it (GET /api/productionruns/{id}/): pools belong to its parts.
  if (query.production_run_id !== undefined)
    filters.push(
      sql`(p.client_id, p.production_run_id) in
            (select client_id, id from production_runs where cycle_run_id = ${query.production_run_id})`,
    );
  const where = sql.join(filters, sql` and `);
  const order = ORDERINGS[query.ordering ?? "-pool_date"] ?? ORDERINGS["-pool_date"];
  const { limit, offset } = resolvePaging(query);
  const [rows, [total]] = await Promise.all([
    queryRows(
      db,
      sql`${SELECT} where ${where} order by ${order} limit ${limit} offset ${offset}`,
      poolRowSchema,
    ),
    queryRows(db, sql`select count(*) as count from pools p where ${where}`, countRowSchema),
  ]);
  return { count: total?.count ?? 0, results: rows.map(toApi) };
}

/** A pool's row by its name (or id, as the generic resource paths name records). */
async function readPool(db: Executor, nameOrId: string): Promise<PoolRow> {
  const byId = /^\d{1,15}$/.test(nameOrId);
  const [row] = await queryRows(
    db,
    byId ? sql`${SELECT} where p.id = ${Number(nameOrId)}` : sql`${SELECT} where p.pool_name = ${nameOrId}`,
    poolRowSchema,
  );
  if (!row) throw notFound();
  return row;
}

/** A pool by its name (or id). */
export async function getPool(db: Executor, nameOrId: string): Promise<PoolRecord> {
  return toApi(await readPool(db, nameOrId));
}

const downloadRowSchema = z.object({ state: dbText, downloaded: z.boolean() });

/**
 * The pool's zip, streamed from disk; 409 while it builds or when it failed, 404 (saying to rebuild)
 * when its zip is missing. The download is what sends a pool out, so in one transaction it claims
 * the pool in went_out (a share lock of its run part: an undo waits for it, then refuses), checks
 * the pool row is still there and ready, and opens the zip: a handle opened while the claim stood
 * reads that zip whatever is removed after. A part undone first answers 404 and claims nothing.
 */
export async function openPoolDownload(db: Database, dataDir: string, name: string) {
  const stored = await readPool(db, name);
  const pool = toApi(stored);
  const refused = poolDownloadRefusal(pool.state);
  if (refused) throw new HttpError(409, { detail: refused });
  const thing =
    stored.client_id !== null && stored.production_run_id !== null
      ? {
          clientId: stored.client_id,
          productionRunId: stored.production_run_id,
          kind: "pool" as const,
          ref: pool.pool_name,
        }
      : null;
  let file: FileHandle | undefined;
  let bytes = 0;
  try {
    await db.transaction(async (tx) => {
      // A pool of no run (none is made today) has no part to undo, so nothing to claim.
      if (thing && (await claimWentOut(tx, thing)) === "withdrawn")
        throw new HttpError(404, { detail: POOL_WITHDRAWN_MESSAGE });
      const [row] = await queryRows(
        tx,
        sql`select state, downloaded_at is not null as downloaded from pools where id = ${pool.id} for update`,
        downloadRowSchema,
      );
      // Deleted (or withdrawn by an undo) since it was read; a rebuild sent it back to building.
      if (!row) throw notFound();
      const refusal = poolDownloadRefusal(
        row.state === "failed" ? "failed" : row.state === "ready" ? "ready" : "building",
      );
      if (refusal) throw new HttpError(409, { detail: refusal });
      file = await openZip(poolFiles(dataDir, pool.pool_name).zip);
      // The size of the file opened (a rebuild may have replaced the zip since the pool was read).
      bytes = (await file.stat()).size;
      await tx.execute(
        sql`update pools set downloaded_at = now() where id = ${pool.id} and downloaded_at is null`,
      );
      if (thing) await settleWentOut(tx, thing, "done");
      // Every download is in the trail (who took the statements out); the first one marks the pool.
      await recordChange(tx, {
        ...poolRecord(pool, "download"),
        before: { downloaded: row.downloaded ? "yes" : "no" },
        after: { downloaded: "yes" },
      });
    });
  } catch (error) {
    await file?.close();
    throw error;
  }
  if (!file) throw new Error("the pool's zip was not opened");
  return { fileName: poolZipName(pool.pool_name), stream: file.createReadStream(), bytes };
}

/** Opens a pool's zip for reading; a missing one is a 404 that says to rebuild the pool. */
async function openZip(path: string): Promise<FileHandle> {
  try {
    return await open(path, "r");
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT")
      throw new HttpError(404, { detail: POOL_FILES_MISSING_MESSAGE });
    throw error;
  }
}

/**
 * Removes the pool and its files. Its statements stay (they only forget their pool) and no
 * ledger entry is touched; a build still running stops at its next batch.
 */
export async function deletePool(db: Executor, dataDir: string, nameOrId: string): Promise<void> {
  const pool = await getPool(db, nameOrId);
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from pools where id = ${pool.id}`);
    await recordChange(tx, { ...poolRecord(pool, "delete"), before: poolValues(pool), after: null });
  });
  removePoolFiles(dataDir, pool.pool_name);
}

/** A pool as the trail names it: its client's chain (the provider's for a bureau-wide pool). */
export function poolRecord(pool: PoolRecord, verb: string) {
  return { clientId: pool.client_id, action: `pool.${verb}`, recordKind: "pool", recordId: pool.id };
}

export function poolValues(pool: PoolRecord) {
  return {
    pool_name: pool.pool_name,
    state: pool.state,
    statements: pool.statements,
    production_run_id: pool.production_run_id,
  };
}
