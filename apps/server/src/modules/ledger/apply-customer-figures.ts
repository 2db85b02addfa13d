import { sql } from "drizzle-orm";
import {
  MONTH_TO_DATE_BUCKETS,
  MONTH_TO_DATE_COLUMNS,
  addFiguresDeltas,
  entryFiguresDelta,
  type CustomerFiguresDelta,
  type LedgerEntryFigures,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";
import { archiveAtZero } from "../customers/archive-at-zero.js";
import { recordCustomerChanges } from "./customer-changes.js";
import { sqlArray } from "./sql-arrays.js";

export type FiguresChange = { customerId: number; entry: LedgerEntryFigures; change: "post" | "remove" };

/** What one set-based figures update did: the customers' new balances and who was archived at zero. */
export type FiguresOutcome = { balances: Map<number, string>; archived: number[] };

const updatedRowSchema = z.object({ id: dbInt, total_balance: dbDecimal, delete_flag: dbText.nullable() });

/**
 * Moves the figures kept beside each touched customer's ledger — balance, tallies, month-to-date
 * buckets, last pay date — by the sum of its entries' changes, in ONE statement for any number of
 * customers, notes them in the change log (same transaction), then applies the archive-at-zero
 * rule. Callers hold the customers' locks.
 */
export async function applyCustomerFigures(
  tx: Executor,
  clientId: number,
  changes: readonly FiguresChange[],
): Promise<FiguresOutcome> {
  const byCustomer = new Map<number, CustomerFiguresDelta>();
  for (const { customerId, entry, change } of changes) {
    const delta = entryFiguresDelta(entry, change);
    const before = byCustomer.get(customerId);
    byCustomer.set(customerId, before ? addFiguresDeltas(before, delta) : delta);
  }
  if (byCustomer.size === 0) return { balances: new Map(), archived: [] };
  const ids = [...byCustomer.keys()].sort((a, b) => a - b);
  await recordCustomerChanges(tx, clientId, ids);
  const deltas = ids.map((id) => byCustomer.get(id) as CustomerFiguresDelta);
  const bucketColumns = MONTH_TO_DATE_BUCKETS.map((bucket) => sql.raw(MONTH_TO_DATE_COLUMNS[bucket]));
  const rows = await queryRows(
    tx,
    sql`update customers c set
          total_balance = c.total_balance + d.balance,
          ledger_entries = c.ledger_entries + d.entries,
          ledger_amount_total = c.ledger_amount_total + d.amount_total,
          ${sql.join(
            MONTH_TO_DATE_BUCKETS.map((bucket, index) => {
              const column = bucketColumns[index];
              return sql`${column} = c.${column} + d.${sql.raw(bucket)}`;
            }),
            sql`, `,
          )},
          last_pay_date = greatest(c.last_pay_date, d.pay_date),
          updated_at = now()
        from unnest(
          ${sqlArray(ids, "bigint")},
          ${sqlArray(
            deltas.map((delta) => delta.balance),
            "numeric",
          )},
          ${sqlArray(
            deltas.map((delta) => delta.entries),
            "int",
          )},
          ${sqlArray(
            deltas.map((delta) => delta.amountTotal),
            "numeric",
          )},
          ${sql.join(
            MONTH_TO_DATE_BUCKETS.map((bucket) =>
              sqlArray(
                deltas.map((delta) => delta.monthToDate[bucket]),
                "numeric",
              ),
            ),
            sql`, `,
          )},
          ${sqlArray(
            deltas.map((delta) => delta.lastPayDate),
            "date",
          )}
        ) as d(id, balance, entries, amount_total, ${sql.raw(MONTH_TO_DATE_BUCKETS.join(", "))}, pay_date)
        -- The id list lets the planner reach the rows by index however many customers the client has.
        where c.client_id = ${clientId} and c.id = any(${sqlArray(ids, "bigint")}) and c.id = d.id
        returning c.id, c.total_balance::text as total_balance, c.delete_flag`,
    updatedRowSchema,
  );
  const balances = new Map(rows.map((row) => [row.id, row.total_balance]));
  const archived = await archiveAtZero(
    tx,
    clientId,
    rows.map((row) => ({ id: row.id, deleteFlag: row.delete_flag, totalBalance: row.total_balance })),
  );
  return { balances, archived };
}
