import { sql } from "drizzle-orm";
import { shouldArchiveAtZero } from "@cyclebill/domain";
import { currentClock } from "../../clock.js";
import type { Executor } from "../../db/database.js";
import { recordCustomerChanges } from "../ledger/customer-changes.js";
import { sqlArray } from "../ledger/sql-arrays.js";

/**
 * The archive-at-zero rule, applied in plain sight: a customer marked for deletion (D or S)
 * is archived the moment its balance reaches zero — after a posting, a void or an edit by the
 * ledger writer, or when the mark is set on a customer already at zero. Returns who was archived.
 * The archive time is the app's clock (reports compare it with business dates), not now().
 */
export async function archiveAtZero(
  tx: Executor,
  clientId: number,
  customers: readonly { id: number; deleteFlag: string | null; totalBalance: string }[],
): Promise<number[]> {
  const settled = customers
    .filter((customer) => shouldArchiveAtZero(customer.deleteFlag, customer.totalBalance))
    .map((customer) => customer.id);
  if (settled.length === 0) return [];
  await tx.execute(
    sql`update customers set deleted = true, deleted_at = ${currentClock().now().toISOString()}::timestamptz
        where client_id = ${clientId} and not deleted and id = any(${sqlArray(settled, "bigint")})`,
  );
  // Archived customers leave the active count.
  await recordCustomerChanges(tx, clientId, settled);
  return settled;
}
