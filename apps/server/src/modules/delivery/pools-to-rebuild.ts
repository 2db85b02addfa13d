import { existsSync } from "node:fs";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt, dbText } from "../../db/row-schemas.js";
import { poolFiles } from "./pool-files.js";

const poolRowSchema = z.object({ id: dbInt, pool_name: dbText, state: dbText });
const countRowSchema = z.object({ count: dbInt });

/** One done part's pools a rebuild would build again. */
export type PartRebuildWork = {
  failed: number[];
  /** Ready, but the zip is gone from the disk. */
  missing: number[];
  /** Statements that go on paper but are in no pool (their pool was deleted): it is made again. */
  unpooled: boolean;
};

/**
 * What a rebuild of this part would do. The one reading of it: the rebuild refuses (409) when no
 * done part of the run has any, and the run's `actions` offer rebuild_pools only when one has.
 */
export async function partRebuildWork(
  db: Executor,
  /** Where the zips are; without it (a worker's read of a run) a ready pool's zip is taken to be there. */
  dataDir: string | undefined,
  part: { clientId: number; productionRunId: number },
): Promise<PartRebuildWork> {
  const pools = await queryRows(
    db,
    sql`select id, pool_name, state from pools
        where client_id = ${part.clientId} and production_run_id = ${part.productionRunId} order by id`,
    poolRowSchema,
  );
  const [unpooled] = await queryRows(
    db,
    sql`select count(*) as count from statements
        where client_id = ${part.clientId} and production_run_id = ${part.productionRunId}
          and pool_id is null and delivery <> 'email'`,
    countRowSchema,
  );
  return {
    failed: pools.filter((pool) => pool.state === "failed").map((pool) => pool.id),
    missing: pools
      .filter(
        (pool) =>
          pool.state === "ready" &&
          dataDir !== undefined &&
          !existsSync(poolFiles(dataDir, pool.pool_name).zip),
      )
      .map((pool) => pool.id),
    unpooled: (unpooled?.count ?? 0) > 0,
  };
}

/** How many pools a rebuild would build, over the work of a run's done parts. */
export function poolsToRebuild(work: readonly PartRebuildWork[]): number {
  return work.reduce(
    (sum, part) => sum + part.failed.length + part.missing.length + (part.unpooled ? 1 : 0),
    0,
  );
}
