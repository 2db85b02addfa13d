import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import { invoices } from "../../db/tables.js";
import { carriedByStatement } from "../ledger/statement-runs.js";
import { sqlArray } from "../ledger/sql-arrays.js";

// The invoices module owns the invoices table: the statement writer, the run's undo and a
// customer's undelete change invoices through these.

const idRowSchema = z.object({ id: dbInt });

/**
 * The statements just written carry the closed invoices they bill in full (the one rule:
 * carriedByStatement): each becomes processed on its customer's statement. Answers how many.
 */
export async function carryInvoicesOnStatements(
  tx: Executor,
  clientId: number,
  statementDate: string,
  pairs: readonly { customerId: number; statementId: number }[],
): Promise<number> {
  if (pairs.length === 0) return 0;
  const carried = await queryRows(
    tx,
    sql`update invoices i set invoice_status = 'processed', statement_id = s.statement_id, processed_at = now()
        from unnest(
          ${sqlArray(
            pairs.map((pair) => pair.customerId),
            "bigint",
          )},
          ${sqlArray(
            pairs.map((pair) => pair.statementId),
            "bigint",
          )}
        ) as s(customer_id, statement_id)
        where i.client_id = ${clientId} and i.customer_id = any(${sqlArray(
          pairs.map((pair) => pair.customerId),
          "bigint",
        )})
          and i.customer_id = s.customer_id and ${carriedByStatement(sql`${statementDate}::date`)}
        returning i.id`,
    idRowSchema,
  );
  return carried.length;
}

/** Statements withdrawn (a run's undo): their invoices are open or closed again, on no statement. */
export async function releaseStatementInvoices(
  tx: Executor,
  clientId: number,
  statementIds: readonly number[],
): Promise<void> {
  if (statementIds.length === 0) return;
  await tx.execute(sql`update invoices set
      invoice_status = case when closed_at is null then 'open' else 'closed' end,
      statement_id = null, processed_at = null
    where client_id = ${clientId} and statement_id = any(${sqlArray([...statementIds], "bigint")})`);
}

/** A deleted customer brought back with a cleared ledger keeps no invoice. */
export async function deleteCustomerInvoices(
  tx: Executor,
  clientId: number,
  customerId: number,
): Promise<void> {
  await tx.delete(invoices).where(and(eq(invoices.clientId, clientId), eq(invoices.customerId, customerId)));
}

/** A reissued statement's invoices go with its corrected version (they stay processed). */
export async function moveStatementInvoices(
  tx: Executor,
  clientId: number,
  fromStatementId: number,
  toStatementId: number,
): Promise<void> {
  await tx.execute(sql`update invoices set statement_id = ${toStatementId}
    where client_id = ${clientId} and statement_id = ${fromStatementId}`);
}
