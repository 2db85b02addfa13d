import { sql } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { sqlArray } from "./sql-arrays.js";

/**
 * Notes, inside the caller's transaction, that these customers' ledger or ageing inputs changed:
 * one customer_changes row per customer per transaction (the row carries the transaction's id, so
 * it commits or rolls back with the change). The client books of every API process read these to
 * refresh only what changed (modules/summary/client-book.ts).
 */
export async function recordCustomerChanges(
  tx: Executor,
  clientId: number,
  customerIds: readonly number[],
): Promise<void> {
  if (customerIds.length === 0) return;
  const ids = [...new Set(customerIds)].sort((a, b) => a - b);
  await tx.execute(
    sql`insert into customer_changes (client_id, customer_id)
        select ${clientId}, id from unnest(${sqlArray(ids, "bigint")}) as c(id)
        on conflict do nothing`,
  );
}

/** The same for every customer of a client (after loading data in bulk, e.g. the demo). */
export async function recordAllCustomerChanges(tx: Executor, clientId: number): Promise<void> {
  await tx.execute(
    sql`insert into customer_changes (client_id, customer_id)
        select client_id, id from customers where client_id = ${clientId}
        on conflict do nothing`,
  );
}

/** Drops change rows older than a day: every client book rebuilds itself well before (client-book.ts). */
export async function pruneCustomerChanges(db: Executor): Promise<void> {
  await db.execute(sql`delete from customer_changes where changed_at < now() - interval '1 day'`);
}
