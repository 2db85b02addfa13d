import { sql } from "drizzle-orm";
import { isNewerStatement, newestStatementFirst } from "../statements/newer-statement.sql.js";
import {
  CODE_TYPES,
  MONTH_TO_DATE_BUCKETS,
  MONTH_TO_DATE_COLUMNS,
  addFiguresDeltas,
  entryFiguresDelta,
  type CustomerFiguresDelta,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal, dbInt } from "../../db/row-schemas.js";
import { recordCustomerChanges } from "./customer-changes.js";
import { lockCustomers } from "./lock-customers.js";
import { sqlArray } from "./sql-arrays.js";

const statementRowSchema = z.object({ id: dbInt, customer_id: dbInt });
const billedRowSchema = z.object({
  customer_id: dbInt,
  code_type: z.enum(CODE_TYPES),
  amount: dbDecimal,
  ledger_amount: dbDecimal,
  service_date: dbDate,
});

/**
 * The reverse of billEntriesOnStatements + startNextPeriods, for statements a run undo withdraws
 * (the caller then deletes them): their entries become unbilled again, and each customer's period
 * is the one before the statement — previous balance from the statement, month-to-date figures
 * back by what the statement billed (entries posted since stay counted), ageing columns as of the
 * customer's statement before. Locks the customers (by id); returns them.
 */
export async function reopenStatements(
  tx: Executor,
  clientId: number,
  statementIds: readonly number[],
): Promise<number[]> {
  if (statementIds.length === 0) return [];
  const ids = sqlArray([...statementIds], "bigint");
  const statements = await queryRows(
    tx,
    sql`select id, customer_id from statements where client_id = ${clientId} and id = any(${ids})`,
    statementRowSchema,
  );
  const customerIds = [...new Set(statements.map((row) => row.customer_id))].sort((a, b) => a - b);
  await lockCustomers(tx, clientId, customerIds);

  const billed = await queryRows(
    tx,
    sql`select t.customer_id, k.code_type, t.amount::text as amount, t.ledger_amount::text as ledger_amount,
               t.service_date::text as service_date
        from transactions t join codes k on k.client_id = t.client_id and k.id = t.code_id
        where t.client_id = ${clientId} and t.statement_id = any(${ids})`,
    billedRowSchema,
  );
  const back = new Map<number, CustomerFiguresDelta>();
  for (const row of billed) {
    const delta = entryFiguresDelta(
      {
        codeType: row.code_type,
        amount: row.amount,
        ledgerAmount: row.ledger_amount,
        serviceDate: row.service_date,
      },
      "post",
    );
    const customerId = row.customer_id;
    const before = back.get(customerId);
    back.set(customerId, before ? addFiguresDeltas(before, delta) : delta);
  }

  await tx.execute(sql`update transactions set statement_id = null
    where client_id = ${clientId} and statement_id = any(${ids})`);

  const zero = "0";
  const bucketColumn = (bucket: (typeof MONTH_TO_DATE_BUCKETS)[number]) =>
    sql.raw(MONTH_TO_DATE_COLUMNS[bucket]);
  await tx.execute(sql`
    update customers c set
      previous_balance = s.previous_balance,
      ${sql.join(
        MONTH_TO_DATE_BUCKETS.map(
          (bucket) => sql`${bucketColumn(bucket)} = c.${bucketColumn(bucket)} + b.${sql.raw(bucket)}`,
        ),
        sql`, `,
      )},
      current_balance = coalesce(p.current_balance, 0), overdue_30_days = coalesce(p.overdue_30_days, 0),
      overdue_60_days = coalesce(p.overdue_60_days, 0), overdue_90_days = coalesce(p.overdue_90_days, 0),
      overdue_over_90_days = coalesce(p.overdue_over_90_days, 0), updated_at = now()
    from statements s
    join unnest(
      ${sqlArray(customerIds, "bigint")},
      ${sql.join(
        MONTH_TO_DATE_BUCKETS.map((bucket) =>
          sqlArray(
            customerIds.map((id) => back.get(id)?.monthToDate[bucket] ?? zero),
            "numeric",
          ),
        ),
        sql`, `,
      )}
    ) as b(customer_id, ${sql.raw(MONTH_TO_DATE_BUCKETS.join(", "))}) on b.customer_id = s.customer_id
    left join lateral (
      select q.current_balance, q.overdue_30_days, q.overdue_60_days, q.overdue_90_days, q.overdue_over_90_days
      from statements q
      where q.client_id = s.client_id and q.customer_id = s.customer_id
        and ${isNewerStatement(
          { date: sql`s.statement_date`, id: sql`s.id` },
          { date: sql`q.statement_date`, id: sql`q.id` },
        )} and not (q.id = any(${ids}))
      order by ${newestStatementFirst(sql`q.statement_date`, sql`q.id`)} limit 1) p on true
    where c.client_id = ${clientId} and c.id = any(${sqlArray(customerIds, "bigint")})
      and s.client_id = ${clientId} and s.id = any(${ids}) and c.id = s.customer_id`);
  await recordCustomerChanges(tx, clientId, customerIds);
  return customerIds;
}
