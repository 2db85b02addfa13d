import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbText } from "../../db/row-schemas.js";

/**
 * Summaries reused while a client's books have not changed. Every change to a client's ledger goes
 * through the ledger writer, which updates each touched customer's row (its balance and tallies) in
 * the same database transaction, so every committed posting, edit, void or removal gives those rows
 * a new row version (xmin). The stamp folds the version of every customer row and every code row of
 * the client (a code's type decides which figure its entries add to) into one number: any committed
 * change, by this process or any other (a worker, another API process), changes it, and the next
 * request recomputes. Reading the stamp costs one pass over the client's customer rows, against
 * reading months of ledger entries for the figures themselves. Nothing is served on a timer.
 */
const MAX_ENTRIES = 500;

type Entry<T> = { stamp: string; value: Promise<T> };
const stores = new WeakMap<object, Map<string, Entry<unknown>>>();

function storeOf(db: object): Map<string, Entry<unknown>> {
  let store = stores.get(db);
  if (!store) {
    store = new Map();
    stores.set(db, store);
  }
  return store;
}

const stampRowSchema = z.object({ stamp: dbText });

/** One string that changes whenever any of the client's customer or code rows is written. */
export async function ledgerStamp(db: Executor, clientId: number): Promise<string> {
  const [row] = await queryRows(
    db,
    sql`select concat_ws(':',
          (select count(*) || '.' || coalesce(bit_xor(hashtextextended(xmin::text, id)), 0)
           from customers where client_id = ${clientId}),
          (select count(*) || '.' || coalesce(bit_xor(hashtextextended(xmin::text, id)), 0)
           from codes where client_id = ${clientId})) as stamp`,
    stampRowSchema,
  );
  return row?.stamp ?? "";
}

/**
 * The value kept under `key` if it was computed at this stamp, else computes it (requests that miss
 * together share one computation). A failed computation is not kept.
 */
export async function cachedSummary<T>(
  db: object,
  key: string,
  stamp: string,
  compute: () => Promise<T>,
): Promise<T> {
  const store = storeOf(db);
  const hit = store.get(key) as Entry<T> | undefined;
  if (hit && hit.stamp === stamp) return hit.value;
  const value = compute();
  if (store.size >= MAX_ENTRIES) store.clear();
  store.set(key, { stamp, value });
  value.catch(() => {
    if (store.get(key)?.value === value) store.delete(key);
  });
  return value;
}
