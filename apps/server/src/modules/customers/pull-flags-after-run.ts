import { sql } from "drizzle-orm";
import { ONE_RUN_PULL_FLAGS, PULL_FLAG_AFTER_ONE_RUN } from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { sqlArray } from "../ledger/sql-arrays.js";

/**
 * After a run, the customers' one-run pull flags (T, N) go back to A, as the domain's
 * pullFlagAfterRun says, set-based for a chunk of customers whose rows the caller holds.
 */
export async function resetPullFlagsAfterRun(
  tx: Executor,
  clientId: number,
  customerIds: readonly number[],
): Promise<void> {
  if (customerIds.length === 0) return;
  await tx.execute(sql`update customers set pull_flag = ${PULL_FLAG_AFTER_ONE_RUN}, updated_at = now()
    where client_id = ${clientId} and id = any(${sqlArray([...customerIds], "bigint")})
      and pull_flag = any(${sqlArray([...ONE_RUN_PULL_FLAGS], "text")})`);
}

/** Undo of a run part: the one-run pull flag (T or N) the run set back to A, for those customers. */
export async function restorePullFlags(
  tx: Executor,
  clientId: number,
  flag: string,
  customerIds: readonly number[],
): Promise<void> {
  if (customerIds.length === 0) return;
  await tx.execute(sql`update customers set pull_flag = ${flag}, updated_at = now()
    where client_id = ${clientId} and id = any(${sqlArray([...customerIds], "bigint")})`);
}
