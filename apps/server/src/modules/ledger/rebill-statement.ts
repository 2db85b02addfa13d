import { sql, type SQL } from "drizzle-orm";
import {
  CODE_TYPES,
  MONTH_TO_DATE_BUCKETS,
  MONTH_TO_DATE_COLUMNS,
  addFiguresDeltas,
  entryFiguresDelta,
  zeroFiguresDelta,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal, dbInt } from "../../db/row-schemas.js";
import { recordCustomerChanges } from "./customer-changes.js";
import type { AgeingSnapshot } from "./statement-period.js";

export type RebillStatement = {
  customerId: number;
  /** The version being replaced. */
  fromStatementId: number;
  /** The corrected version, already inserted. */
  toStatementId: number;
  /** The customer's (live) statement date before it; null: its first statement. */
  priorDate: string | null;
  statementDate: string;
  /** When it is the customer's newest statement, the next period starts from the corrected one. */
  latest: { newBalance: string; ageing: AgeingSnapshot } | null;
};

const entryRowSchema = z.object({
  statement_id: dbInt.nullable(),
  code_type: z.enum(CODE_TYPES),
  amount: dbDecimal,
  ledger_amount: dbDecimal,
  service_date: dbDate,
});

/**
 * The entries a corrected statement bills (on `t`, the customer's own): dated in its period (after
 * the previous statement's date, up to its own) and on the replaced version, on no statement, or on a
 * newer statement of the customer (billed there because the period was reopened).
 */
export function billedByCorrectedStatement(
  input: Pick<RebillStatement, "fromStatementId" | "priorDate" | "statementDate">,
): SQL {
  const after = input.priorDate === null ? sql`true` : sql`t.service_date > ${input.priorDate}::date`;
  return sql`t.service_date <= ${input.statementDate}::date and ${after}
    and (t.statement_id is null or t.statement_id = ${input.fromStatementId}
         or t.statement_id in (select n.id from statements n
                               where n.client_id = t.client_id and n.customer_id = t.customer_id
                                 and n.replaced_by_id is null and n.statement_date > ${input.statementDate}::date))`;
}

/**
 * The ledger side of reissuing a statement (the caller holds the customer's lock): its period's
 * entries move to the corrected version, the replaced version's entries now dated outside its period
 * are released (the statement of the period they lie in bills them), and the customer's month-to-date
 * figures follow (they count what no statement billed). When it is the customer's newest statement,
 * the next period starts from the corrected one: its new balance and ageing, as startNextPeriods does.
 */
export async function rebillStatement(tx: Executor, clientId: number, input: RebillStatement): Promise<void> {
  const own = sql`t.client_id = ${clientId} and t.customer_id = ${input.customerId}`;
  const billed = await queryRows(
    tx,
    sql`select t.statement_id, k.code_type, t.amount::text as amount, t.ledger_amount::text as ledger_amount,
               t.service_date::text as service_date
        from transactions t join codes k on k.client_id = t.client_id and k.id = t.code_id
        where ${own} and t.statement_id is null and ${billedByCorrectedStatement(input)}`,
    entryRowSchema,
  );
  await tx.execute(sql`update transactions t set statement_id = ${input.toStatementId}
    where ${own} and ${billedByCorrectedStatement(input)}`);
  const released = await queryRows(
    tx,
    sql`update transactions t set statement_id = null
        from codes k
        where ${own} and t.statement_id = ${input.fromStatementId} and k.client_id = t.client_id and k.id = t.code_id
        returning t.statement_id, k.code_type, t.amount::text as amount, t.ledger_amount::text as ledger_amount,
                  t.service_date::text as service_date`,
    entryRowSchema,
  );
  let delta = zeroFiguresDelta();
  const figuresOf = (row: z.output<typeof entryRowSchema>) => ({
    codeType: row.code_type,
    amount: row.amount,
    ledgerAmount: row.ledger_amount,
    serviceDate: row.service_date,
  });
  for (const row of released) delta = addFiguresDeltas(delta, entryFiguresDelta(figuresOf(row), "post"));
  for (const row of billed) delta = addFiguresDeltas(delta, entryFiguresDelta(figuresOf(row), "remove"));
  const bucketColumn = (bucket: (typeof MONTH_TO_DATE_BUCKETS)[number]) =>
    sql.raw(MONTH_TO_DATE_COLUMNS[bucket]);
  const monthToDate = sql.join(
    MONTH_TO_DATE_BUCKETS.map(
      (bucket) =>
        sql`${bucketColumn(bucket)} = c.${bucketColumn(bucket)} + ${delta.monthToDate[bucket]}::numeric`,
    ),
    sql`, `,
  );
  const latest = input.latest;
  const period = latest
    ? sql`, previous_balance = ${latest.newBalance}::numeric,
          current_balance = ${latest.ageing.currentBalance}::numeric,
          overdue_30_days = ${latest.ageing.overdue30Days}::numeric,
          overdue_60_days = ${latest.ageing.overdue60Days}::numeric,
          overdue_90_days = ${latest.ageing.overdue90Days}::numeric,
          overdue_over_90_days = ${latest.ageing.overdueOver90Days}::numeric`
    : sql``;
  await tx.execute(sql`update customers c set ${monthToDate}${period}, updated_at = now()
    where c.client_id = ${clientId} and c.id = ${input.customerId}`);
  await recordCustomerChanges(tx, clientId, [input.customerId]);
}
