import { sql } from "drizzle-orm";
import type { AgeingBuckets } from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDecimal, dbInt } from "../../db/row-schemas.js";
import type { statements } from "../../db/tables.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import { billEntriesOnStatements, startNextPeriods } from "../ledger/statement-runs.js";
import { carryInvoicesOnStatements } from "../invoices/statement-invoices.js";
import { billedFigures, type AgeingSnapshot } from "../ledger/statement-period.js";
import { ageCustomerBalances } from "../summary/customer-ageing.queries.js";
import { boxesOfStatementsToMake } from "./statement-boxes.js";
import { lockStatementNumbers } from "./statement-numbers.js";

/** One statement to make: whose, and how it goes out. */
export type StatementToWrite = { customerId: number; delivery: (typeof statements.$inferSelect)["delivery"] };

const previousBalanceRowSchema = z.object({ id: dbInt, previous_balance: dbDecimal });
const maxNumRowSchema = z.object({ max: dbInt.nullable() });
const insertedRowSchema = z.object({ id: dbInt, customer_id: dbInt });

export type WrittenStatements = {
  statements: number;
  invoicesProcessed: number;
  /** Each customer's new statement id. */
  statementIds: Map<number, number>;
};

/** A statement's ageing columns from the one ageing rule's buckets (a run's and a reissue's). */
export function snapshotOf(ageing: AgeingBuckets | undefined): AgeingSnapshot {
  return {
    currentBalance: ageing?.current ?? "0",
    overdue30Days: ageing?.days30 ?? "0",
    overdue60Days: ageing?.days60 ?? "0",
    overdue90Days: ageing?.days90 ?? "0",
    overdueOver90Days: ageing?.over90 ?? "0",
  };
}

/**
 * Makes one statement each for the given customers (whose rows the caller holds locked), dated
 * `statementDate`: the one statement writer, used by the production run's chunks and, for one
 * customer, by createStatement. Each statement's boxes come from the entries it is about to bill
 * (billedByStatement, the domain's statementBillsEntry) and are inserted with it once; numbers are
 * drawn under the client's statement-number lock; the entries are billed, the closed invoices it
 * carries (carriedByStatement) marked processed, and the next period started.
 */
export async function writeStatements(
  tx: Executor,
  input: { clientId: number; productionRunId: number | null; statementDate: string },
  items: readonly StatementToWrite[],
): Promise<WrittenStatements> {
  if (items.length === 0) return { statements: 0, invoicesProcessed: 0, statementIds: new Map() };
  const { clientId, productionRunId, statementDate: runDate } = input;
  const ids = items.map((item) => item.customerId);
  const figures = await queryRows(
    tx,
    sql`select id, previous_balance::text
        from customers where client_id = ${clientId} and id = any(${sqlArray(ids, "bigint")}) order by id`,
    previousBalanceRowSchema,
  );
  const byId = new Map(figures.map((row) => [row.id, row]));
  const ageing = new Map(
    (await ageCustomerBalances(tx, clientId, runDate, ids)).map((row) => [row.customerId, snapshotOf(row)]),
  );
  // Each statement's boxes from the entries it is about to bill: written once, with the statement.
  const boxes = await boxesOfStatementsToMake(
    tx,
    clientId,
    runDate,
    ids.map((id) => ({ customerId: id, previousBalance: byId.get(id)?.previous_balance ?? "0" })),
  );
  // Taken last, after every row lock of the chunk, and held to its commit: chunks running at once
  // draw their statement numbers one after another.
  await lockStatementNumbers(tx, clientId);
  const [last] = await queryRows(
    tx,
    sql`select max(statement_num) as max from statements where client_id = ${clientId}`,
    maxNumRowSchema,
  );
  const firstNum = (last?.max ?? 0) + 1;
  const rows = items.map((item, index) => {
    const customer = byId.get(item.customerId);
    if (!customer) throw new Error(`customer ${item.customerId} not found`);
    const own = boxes.get(item.customerId);
    if (!own) throw new Error(`statement boxes of customer ${item.customerId} missing`);
    return {
      item,
      customer,
      boxes: own,
      num: firstNum + index,
      ageing: ageing.get(item.customerId) ?? snapshotOf(undefined),
      delivery: item.delivery,
    };
  });
  const column = <T extends string | number>(pick: (row: (typeof rows)[number]) => T) => rows.map(pick);
  const inserted = await queryRows(
    tx,
    sql`insert into statements (client_id, statement_num, customer_id, statement_date, invoice_status,
          production_run_id, delivery, previous_balance, charges, payments, credit_adjustments, debit_adjustments,
          late_fees, new_balance, current_balance, overdue_30_days, overdue_60_days, overdue_90_days,
          overdue_over_90_days)
        select ${clientId}::bigint, s.num, s.customer_id, ${runDate}::date, 'processed', ${productionRunId}::bigint,
               s.delivery, s.previous_balance, s.charges, s.payments, s.credit, s.debit, s.late_fees, s.new_balance,
               s.current_balance, s.overdue_30, s.overdue_60, s.overdue_90, s.overdue_over_90
        from unnest(
          ${sqlArray(
            column((row) => row.num),
            "int",
          )},
          ${sqlArray(ids, "bigint")},
          ${sqlArray(
            column((row) => row.delivery),
            "text",
          )},
          ${sqlArray(
            column((row) => row.boxes.previousBalance),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.boxes.charges),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.boxes.payments),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.boxes.creditAdjustments),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.boxes.debitAdjustments),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.boxes.lateFees),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.boxes.newBalance),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.ageing.currentBalance),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.ageing.overdue30Days),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.ageing.overdue60Days),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.ageing.overdue90Days),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.ageing.overdueOver90Days),
            "numeric",
          )}
        ) as s(num, customer_id, delivery, previous_balance, charges, payments, credit, debit, late_fees, new_balance,
               current_balance, overdue_30, overdue_60, overdue_90, overdue_over_90)
        returning id, customer_id`,
    insertedRowSchema,
  );
  const statementOf = new Map(inserted.map((row) => [row.customer_id, row.id]));
  const pairs = ids.map((id) => ({ customerId: id, statementId: statementOf.get(id) as number }));
  await billEntriesOnStatements(
    tx,
    clientId,
    pairs.map((pair) => ({ ...pair, statementDate: runDate })),
  );
  const invoicesProcessed = await carryInvoicesOnStatements(tx, clientId, runDate, pairs);
  await startNextPeriods(
    tx,
    clientId,
    rows.map((row) => ({
      customerId: row.item.customerId,
      previousBalance: row.boxes.newBalance,
      ageing: row.ageing,
      billed: billedFigures(row.boxes),
    })),
  );
  return { statements: inserted.length, invoicesProcessed, statementIds: statementOf };
}
