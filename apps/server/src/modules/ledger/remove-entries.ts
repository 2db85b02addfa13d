import { sql } from "drizzle-orm";
import { CODE_TYPES } from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal, dbInt } from "../../db/row-schemas.js";
import { applyCustomerFigures } from "./apply-customer-figures.js";
import { assertOpenPeriod } from "./closed-period.js";
import { removalOf } from "./entry-content.js";
import { lockCustomers } from "./lock-customers.js";
import { sqlArray } from "./sql-arrays.js";
import { auditRemovedEntries } from "./entry-audit.js";

const ownerRowSchema = z.object({ customer_id: dbInt });
const datedRowSchema = z.object({ service_date: dbDate });
/** A removed entry, as removalOf takes it off its customer (a StoredEntryRow). */
const removedRowSchema = z.object({
  customer_id: dbInt,
  code_type: z.enum(CODE_TYPES),
  amount: dbDecimal,
  ledger_amount: dbDecimal,
  service_date: dbDate,
  /** The whole deleted row, for the trail. */
  entry: z.record(z.string(), z.unknown()),
});

/**
 * Takes entries out of the ledger (a deleted entry, a deleted void or reversal) and their effect
 * off their customers' figures, set-based, in the caller's database transaction. The caller has
 * checked that each entry may go; returns how many went.
 */
export async function removeEntries(
  tx: Executor,
  tenant: { clientId: number },
  entryIds: readonly number[],
): Promise<number> {
  const ids = [...new Set(entryIds)];
  if (ids.length === 0) return 0;
  const owners = await queryRows(
    tx,
    sql`select distinct customer_id from transactions
        where client_id = ${tenant.clientId} and id = any(${sqlArray(ids, "bigint")})`,
    ownerRowSchema,
  );
  await lockCustomers(
    tx,
    tenant.clientId,
    owners.map((row) => row.customer_id),
  );
  // An entry dated in a closed period stays (undoing a run restores the date before it first).
  const dated = await queryRows(
    tx,
    sql`select distinct service_date::text as service_date from transactions
        where client_id = ${tenant.clientId} and id = any(${sqlArray(ids, "bigint")})`,
    datedRowSchema,
  );
  await assertOpenPeriod(
    tx,
    tenant.clientId,
    dated.map((row) => ({ serviceDate: row.service_date })),
  );
  const removed = await queryRows(
    tx,
    sql`with gone as (
          delete from transactions
          where client_id = ${tenant.clientId} and id = any(${sqlArray(ids, "bigint")})
          returning *)
        select gone.customer_id, codes.code_type, gone.amount::text as amount,
               gone.ledger_amount::text as ledger_amount, gone.service_date::text as service_date,
               -- Every field as text, so an amount keeps its cents ("12.50", not 12.5).
               (select jsonb_object_agg(key, value) from jsonb_each_text(to_jsonb(gone))) as entry
        from gone join codes on codes.client_id = ${tenant.clientId} and codes.id = gone.code_id`,
    removedRowSchema,
  );
  await applyCustomerFigures(tx, tenant.clientId, removed.map(removalOf));
  await auditRemovedEntries(tx, tenant.clientId, removed);
  return removed.length;
}
