import { sql } from "drizzle-orm";
import { rebuildRefusal, type Page, type PoolRecord } from "@cyclebill/domain";
import { z } from "zod";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import { HttpError, notFound } from "../../http/errors.js";
import { createRunDeliveries } from "./create-pools.js";
import { POOL_BUILD_JOB, type DeliveryJob, type EnqueueDeliveryJobs } from "./delivery-jobs.js";
import { partRebuildWork, poolsToRebuild, type PartRebuildWork } from "./pools-to-rebuild.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import { getPool, poolRecord, poolValues } from "./pools.js";
import { recordChange } from "../audit/record-change.js";

const idRowSchema = z.object({ id: dbInt });
const partRowSchema = z.object({ client_id: dbInt, id: dbInt });

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
    // The same reading the run's actions offer rebuild_pools by: refused when there is nothing.
    const work: PartRebuildWork[] = [];
    for (const part of parts)
      work.push(await partRebuildWork(tx, dataDir, { clientId: part.client_id, productionRunId: part.id }));
    const refusal = rebuildRefusal({ poolsToRebuild: poolsToRebuild(work) });
    if (refusal) throw new HttpError(409, { detail: refusal });
    const jobs: DeliveryJob[] = [];
    for (const [index, part] of parts.entries()) {
      const clientId = part.client_id;
      const productionRunId = part.id;
      const { failed, missing } = work[index] ?? { failed: [], missing: [] };
      // A failed pool, and a ready one whose zip is gone from the disk, are drawn again from their
      // statements (a missing one's download record, if it went out, stays: the part still cannot
      // be undone). Each only if still in the state it was read in.
      const rebuilt = await queryRows(
        tx,
        sql`update pools set state = 'building', done = 0, pages_count = 0, error = null, finished_at = null,
                             builder = null, file_bytes = null
            where (id = any(${sqlArray(failed, "bigint")}) and state = 'failed')
               or (id = any(${sqlArray(missing, "bigint")}) and state = 'ready')
            returning id`,
        idRowSchema,
      );
      for (const pool of rebuilt) jobs.push({ name: POOL_BUILD_JOB, payload: { poolId: pool.id } });
      const remade = await createRunDeliveries(tx, { clientId, productionRunId });
      jobs.push(...remade);
    }
    const builds = jobs.filter((job) => job.name === POOL_BUILD_JOB);
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
