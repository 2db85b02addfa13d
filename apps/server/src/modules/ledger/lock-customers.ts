import { sql } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { z } from "zod";
import { queryRows } from "../../db/query-rows.js";
import { dbBool, dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";
import { sqlArray } from "./sql-arrays.js";

export type LockedCustomer = {
  id: number;
  deleteFlag: string | null;
  deleted: boolean;
  totalBalance: string;
};

const lockedRowSchema = z.object({
  id: dbInt,
  delete_flag: dbText.nullable(),
  deleted: dbBool,
  total_balance: dbDecimal,
});

/**
 * Locks customers in id order — the one order every path that moves money uses, so two
 * transactions touching the same customers can never wait on each other in a cycle.
 */
export async function lockCustomers(
  tx: Executor,
  clientId: number,
  customerIds: Iterable<number>,
): Promise<Map<number, LockedCustomer>> {
  const ids = [...new Set(customerIds)].sort((a, b) => a - b);
  const locked = new Map<number, LockedCustomer>();
  if (ids.length === 0) return locked;
  const rows = await queryRows(
    tx,
    sql`select id, delete_flag, deleted, total_balance::text as total_balance from customers
        where client_id = ${clientId} and id = any(${sqlArray(ids, "bigint")})
        order by id for update`,
    lockedRowSchema,
  );
  for (const row of rows) {
    const id = row.id;
    locked.set(id, {
      id,
      deleteFlag: row.delete_flag,
      deleted: row.deleted,
      totalBalance: row.total_balance,
    });
  }
  return locked;
}
