import { sql } from "drizzle-orm";
import { GROUP_FLAG_AFTER_ONE_RUN, ONE_RUN_GROUP_FLAG } from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { sqlArray } from "../ledger/sql-arrays.js";

/**
 * After a run, a route plan's one-cycle skip goes back to standard, as the domain's
 * groupFlagAfterRun says, for a chunk of customers.
 */
export async function resetGroupFlagsAfterRun(
  tx: Executor,
  clientId: number,
  customerIds: readonly number[],
): Promise<void> {
  if (customerIds.length === 0) return;
  await tx.execute(sql`update route_plans set bill_indicator_flag = ${GROUP_FLAG_AFTER_ONE_RUN}
    where client_id = ${clientId} and customer_id = any(${sqlArray([...customerIds], "bigint")})
      and bill_indicator_flag = ${ONE_RUN_GROUP_FLAG}`);
}

/** Undo of a run part: the one-cycle skip the run set back to standard, for those customers. */
export async function restoreGroupSkip(
  tx: Executor,
  clientId: number,
  customerIds: readonly number[],
): Promise<void> {
  if (customerIds.length === 0) return;
  await tx.execute(sql`update route_plans set bill_indicator_flag = ${ONE_RUN_GROUP_FLAG}
    where client_id = ${clientId} and customer_id = any(${sqlArray([...customerIds], "bigint")})`);
}
