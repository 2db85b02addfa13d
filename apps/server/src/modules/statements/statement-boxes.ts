import { sql, type SQL } from "drizzle-orm";
import { statementBoxes, type CodeType, type StatementBoxes } from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import { billedByStatement } from "../ledger/statement-runs.js";

/** The late-fee system code (plan-production's LATE_FEE_CODE): its entries and their voids are late fees. */
const LATE_FEE_CODE = -1;

export type StatementToBox = { statementId: number; previousBalance: string };

/**
 * Boxes per owner (a statement, or the customer whose statement is about to be made): the entries
 * `which` picks (on `t`), summed by the owner column, code type and late fee, through statementBoxes.
 */
async function boxesBy(
  tx: Executor,
  clientId: number,
  owner: "statement_id" | "customer_id",
  which: SQL,
  items: readonly { owner: number; previousBalance: string }[],
): Promise<Map<number, StatementBoxes>> {
  if (items.length === 0) return new Map();
  const rows = await queryRows<{
    owner: string | number;
    code_type: CodeType;
    late_fee: boolean;
    ledger_amount: string;
  }>(
    tx,
    sql`select t.${sql.raw(owner)} as owner, k.code_type,
               (k.code = ${LATE_FEE_CODE} or t.transaction_type = 'late_fee') as late_fee,
               sum(t.ledger_amount)::text as ledger_amount
        from transactions t join codes k on k.client_id = t.client_id and k.id = t.code_id
        where t.client_id = ${clientId} and ${which}
        group by 1, 2, 3`,
  );
  const entriesOf = new Map<number, { codeType: CodeType; ledgerAmount: string; lateFee: boolean }[]>();
  for (const row of rows) {
    const key = Number(row.owner);
    const list = entriesOf.get(key) ?? [];
    list.push({ codeType: row.code_type, ledgerAmount: row.ledger_amount, lateFee: row.late_fee });
    entriesOf.set(key, list);
  }
  return new Map(
    items.map((item) => [item.owner, statementBoxes(item.previousBalance, entriesOf.get(item.owner) ?? [])]),
  );
}

/**
 * The boxes of statements about to be made (a production run's chunk), by customer: from the
 * entries each statement will bill (billedByStatement), read before the statements are written so
 * each is inserted with its figures once.
 */
export function boxesOfStatementsToMake(
  tx: Executor,
  clientId: number,
  statementDate: string,
  items: readonly { customerId: number; previousBalance: string }[],
): Promise<Map<number, StatementBoxes>> {
  const ids = sqlArray(
    items.map((item) => item.customerId),
    "bigint",
  );
  return boxesBy(
    tx,
    clientId,
    "customer_id",
    sql`t.customer_id = any(${ids}) and ${billedByStatement(sql`${statementDate}::date`)}`,
    items.map((item) => ({ owner: item.customerId, previousBalance: item.previousBalance })),
  );
}

/**
 * Each statement's boxes from the entries it carries (set-based, one query): the one domain rule
 * (statementBoxes), so the record, the PDF, the email and the preview print the same figures.
 */
export function boxesOfStatements(
  tx: Executor,
  clientId: number,
  items: readonly StatementToBox[],
): Promise<Map<number, StatementBoxes>> {
  const ids = sqlArray(
    items.map((item) => item.statementId),
    "bigint",
  );
  return boxesBy(
    tx,
    clientId,
    "statement_id",
    sql`t.statement_id = any(${ids})`,
    items.map((item) => ({ owner: item.statementId, previousBalance: item.previousBalance })),
  );
}

/** Writes the boxes onto their statements (made a moment before in the same transaction). */
export async function writeStatementBoxes(
  tx: Executor,
  clientId: number,
  boxes: ReadonlyMap<number, StatementBoxes>,
): Promise<void> {
  if (boxes.size === 0) return;
  const list = [...boxes.entries()];
  const column = (pick: (value: StatementBoxes) => string) =>
    sqlArray(
      list.map(([, value]) => pick(value)),
      "numeric",
    );
  await tx.execute(sql`
    update statements s set previous_balance = b.previous_balance, charges = b.charges, late_fees = b.late_fees,
      debit_adjustments = b.debit_adjustments, payments = b.payments, credit_adjustments = b.credit_adjustments,
      new_balance = b.new_balance
    from unnest(
      ${sqlArray(
        list.map(([id]) => id),
        "bigint",
      )},
      ${column((value) => value.previousBalance)}, ${column((value) => value.charges)},
      ${column((value) => value.lateFees)}, ${column((value) => value.debitAdjustments)},
      ${column((value) => value.payments)}, ${column((value) => value.creditAdjustments)},
      ${column((value) => value.newBalance)}
    ) as b(id, previous_balance, charges, late_fees, debit_adjustments, payments, credit_adjustments, new_balance)
    where s.client_id = ${clientId} and s.id = b.id`);
}
