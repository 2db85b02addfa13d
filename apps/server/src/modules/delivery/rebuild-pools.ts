import { existsSync } from "node:fs";
import { sql } from "drizzle-orm";
import { NOTHING_TO_REBUILD_MESSAGE, type Page, type PoolRecord } from "@cyclebill/domain";
import { z } from "zod";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt, dbText } from "../../db/row-schemas.js";
import { HttpError, notFound } from "../../http/errors.js";
import { createRunDeliveries } from "./create-pools.js";
import { POOL_BUILD_JOB, type DeliveryJob, type EnqueueDeliveryJobs } from "./delivery-jobs.js";
import { poolFiles } from "./pool-files.js";
import { getPool, poolRecord, poolValues } from "./pools.js";
import { recordChange } from "../audit/record-change.js";

const idRowSchema = z.object({ id: dbInt });
const partRowSchema = z.object({ client_id: dbInt, id: dbInt });
const readyRowSchema = z.object({ id: dbInt, pool_name: dbText });

/**
 * Rebuilds the print pools of a production run (admins) from its statements: a failed pool, or a
 * ready one whose zip is missing, goes back to building, and a deleted one is made again from the
 * run's statements that are in no pool (the same rule that made it, whose unique key leaves the
 * other pools alone). Only the clients' parts that are done; one transaction queues the builds.
 * 409 when there is nothing to rebuild.
 */
export async function rebuildRunPools(
  db: Database,
  dataDir: string,
  cycleRunId: number,
  enqueue: EnqueueDeliveryJobs,
): Promise<Page<PoolRecord>> {
  const poolIds = await db.transaction(async (tx) => {
    const [run] = await queryRows(
      tx,
      sql`select id from cycle_runs where id = ${cycleRunId} for update`,
      idRowSchema,
    );
    if (!run) throw notFound();
    const parts = await queryRows(
      tx,
      sql`select client_id, id from production_runs
          where cycle_run_id = ${cycleRunId} and status = 'done' order by client_id, id`,
      partRowSchema,
    );
    const jobs: DeliveryJob[] = [];
    for (const part of parts) {
      const clientId = part.client_id;
      const productionRunId = part.id;
      const failed = await queryRows(
        tx,
        sql`update pools set state = 'building', done = 0, pages_count = 0, error = null, finished_at = null,
                             builder = null
            where client_id = ${clientId} and production_run_id = ${productionRunId} and state = 'failed'
            returning id`,
        idRowSchema,
      );
      for (const pool of failed) jobs.push({ name: POOL_BUILD_JOB, payload: { poolId: pool.id } });
      // A ready pool whose zip is gone from the disk is drawn again from its statements (its
      // download record, if it went out, stays: the part still cannot be undone).
      const ready = await queryRows(
        tx,
        sql`select id, pool_name from pools
            where client_id = ${clientId} and production_run_id = ${productionRunId} and state = 'ready'
            order by id for update`,
        readyRowSchema,
      );
      for (const pool of ready.filter((row) => !existsSync(poolFiles(dataDir, row.pool_name).zip))) {
        await tx.execute(
          sql`update pools set state = 'building', done = 0, pages_count = 0, error = null, finished_at = null,
                               builder = null, file_bytes = null
              where id = ${pool.id}`,
        );
        jobs.push({ name: POOL_BUILD_JOB, payload: { poolId: pool.id } });
      }
      const remade = await createRunDeliveries(tx, { clientId, productionRunId });
      jobs.push(...remade);
    }
    const builds = jobs.filter((job) => job.name === POOL_BUILD_JOB);
    if (builds.length === 0) throw new HttpError(409, { detail: NOTHING_TO_REBUILD_MESSAGE });
    await enqueue(tx, jobs);
    return builds.map((job) => (job.payload as { poolId: number }).poolId);
  });
  const results = await Promise.all(poolIds.map((id) => getPool(db, String(id))));
  await db.transaction(async (tx) => {
    for (const pool of results)
      await recordChange(tx, { ...poolRecord(pool, "rebuild"), before: null, after: poolValues(pool) });
  });
  return { count: results.length, results };
}
