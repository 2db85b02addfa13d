import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbInt } from "../../db/row-schemas.js";
import { sqlArray } from "../ledger/sql-arrays.js";

// A customer's recurring charges belong to the customers module; the production run marks the
// ones it billed, and its undo puts their dates back, through these.

const billedRowSchema = z.object({ id: dbInt, last_billed_on: dbDate.nullable() });

/** Marks the charges billed on the run date; answers each one's last billed date before, for undo. */
export async function markRecurringBilled(
  tx: Executor,
  clientId: number,
  chargeIds: readonly number[],
  runDate: string,
): Promise<[number, string | null][]> {
  if (chargeIds.length === 0) return [];
  const ids = sqlArray([...chargeIds], "bigint");
  const before = await queryRows(
    tx,
    sql`select id, last_billed_on::text as last_billed_on from recurring_charges
        where client_id = ${clientId} and id = any(${ids}) order by id`,
    billedRowSchema,
  );
  await tx.execute(sql`update recurring_charges set last_billed_on = ${runDate}::date
    where client_id = ${clientId} and id = any(${ids})`);
  return before.map((row) => [row.id, row.last_billed_on]);
}

/** Undo of a run part: each charge's last billed date as the run found it. */
export async function restoreRecurringBilled(
  tx: Executor,
  clientId: number,
  before: readonly (readonly [number, string | null])[],
): Promise<void> {
  if (before.length === 0) return;
  await tx.execute(sql`update recurring_charges r set last_billed_on = b.last_billed_on
    from unnest(${sqlArray(
      before.map(([id]) => id),
      "bigint",
    )}, ${sqlArray(
      before.map(([, date]) => date),
      "date",
    )}) as b(id, last_billed_on)
    where r.client_id = ${clientId} and r.id = b.id`);
}
