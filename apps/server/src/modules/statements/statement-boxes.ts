import { sql, type SQL } from "drizzle-orm";
import {
  CODE_TYPES,
  LATE_FEE_CODE,
  statementBoxes,
  type CodeType,
  type StatementBoxes,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbBool, dbDecimal, dbInt } from "../../db/row-schemas.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import { billedByStatement } from "../ledger/statement-runs.js";
import { billedByCorrectedStatement } from "../ledger/rebill-statement.js";

export type StatementToBox = { statementId: number; previousBalance: string };

/** An owner's entries summed by code type and late fee. */
const ownerSumRowSchema = z.object({
  owner: dbInt,
  code_type: z.enum(CODE_TYPES),
  late_fee: dbBool,
  ledger_amount: dbDecimal,
});

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
  const rows = await queryRows(
    tx,
    sql`select t.${sql.raw(owner)} as owner, k.code_type,
               (k.code = ${LATE_FEE_CODE}) as late_fee,
               sum(t.ledger_amount)::text as ledger_amount
        from transactions t join codes k on k.client_id = t.client_id and k.id = t.code_id
        where t.client_id = ${clientId} and ${which}
        group by 1, 2, 3`,
    ownerSumRowSchema,
  );
  const entriesOf = new Map<number, { codeType: CodeType; ledgerAmount: string; lateFee: boolean }[]>();
  for (const row of rows) {
    const key = row.owner;
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
 * The boxes of a corrected version of a statement, through the same statementBoxes: from the entries
 * it will bill (billedByCorrectedStatement: its period's entries now), with the previous balance given.
 */
export async function boxesOfCorrectedStatement(
  tx: Executor,
  clientId: number,
  input: {
    customerId: number;
    fromStatementId: number;
    priorDate: string | null;
    statementDate: string;
    previousBalance: string;
  },
): Promise<StatementBoxes> {
  const boxes = await boxesBy(
    tx,
    clientId,
    "customer_id",
    sql`t.customer_id = ${input.customerId} and ${billedByCorrectedStatement(input)}`,
    [{ owner: input.customerId, previousBalance: input.previousBalance }],
  );
  const own = boxes.get(input.customerId);
  if (!own) throw new Error(`boxes of customer ${input.customerId} missing`);
  return own;
}
