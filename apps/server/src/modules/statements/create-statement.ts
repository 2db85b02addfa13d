import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { clients, customers, invoices, statements } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError } from "../../http/errors.js";
import { billEntriesOnStatement } from "../ledger/entry-links.js";
import { billedFigures, startNextPeriod } from "../ledger/statement-period.js";
import { boxesOfStatements, writeStatementBoxes } from "./statement-boxes.js";
import { ageCustomerBalances } from "../summary/customer-ageing.queries.js";

export type StatementRow = typeof statements.$inferSelect;
export type StatementDelivery = StatementRow["delivery"];

export type CreateStatementInput = {
  customerId: number;
  /** YYYY-MM-DD; the statement carries the entries dated up to this day. */
  statementDate: string;
  poolId?: number | null;
  productionRunId?: number | null;
  delivery?: StatementDelivery;
};

/**
 * Closes a customer's billing period (the production run calls this once per customer):
 * snapshots previous balance, the month-to-date charges, payments and adjustments, the new
 * balance and its ageing; puts the entries not yet billed (up to the statement date, plus
 * those of the invoices it carries) on the statement; marks the open and closed invoices
 * processed; then starts the next period (previous balance = new balance, month-to-date 0).
 * One database transaction, with the customer row locked as postings lock it, so no posting
 * can fall between the snapshot and the reset. The ledger module links the entries and starts
 * the next period; no amount moves.
 */
export async function createStatement(
  db: Executor,
  tenant: Pick<TenantContext, "clientId">,
  input: CreateStatementInput,
): Promise<StatementRow> {
  return db.transaction(async (tx) => {
    // The client row is the lock for numbering, as for invoices.
    await tx.select({ id: clients.id }).from(clients).where(eq(clients.id, tenant.clientId)).for("update");
    const [customer] = await tx
      .select()
      .from(customers)
      .where(and(eq(customers.clientId, tenant.clientId), eq(customers.id, input.customerId)))
      .for("update")
      .limit(1);
    if (!customer) throw fieldError("customer", "Invalid customer - object does not exist.");
    const [ageing] = await ageCustomerBalances(tx, tenant.clientId, input.statementDate, [customer.id]);
    const [last] = await tx
      .select({ max: sql<number | null>`max(${statements.statementNum})` })
      .from(statements)
      .where(eq(statements.clientId, tenant.clientId));
    const buckets = {
      currentBalance: ageing?.current ?? "0",
      overdue30Days: ageing?.days30 ?? "0",
      overdue60Days: ageing?.days60 ?? "0",
      overdue90Days: ageing?.days90 ?? "0",
      overdueOver90Days: ageing?.over90 ?? "0",
    };
    const [statement] = await tx
      .insert(statements)
      .values({
        clientId: tenant.clientId,
        statementNum: Number(last?.max ?? 0) + 1,
        customerId: customer.id,
        statementDate: input.statementDate,
        invoiceStatus: "processed",
        poolId: input.poolId ?? null,
        productionRunId: input.productionRunId ?? null,
        delivery: input.delivery ?? "mail",
        previousBalance: customer.previousBalance,
        charges: customer.mtdCharges,
        payments: customer.mtdPayments,
        creditAdjustments: customer.mtdCrAdj,
        debitAdjustments: customer.mtdDbAdj,
        newBalance: customer.totalBalance,
        ...buckets,
      })
      .returning();
    if (!statement) throw new Error("statement not created");

    const carried = await tx
      .update(invoices)
      .set({ invoiceStatus: "processed", statementId: statement.id, processedAt: new Date() })
      .where(
        and(
          eq(invoices.clientId, tenant.clientId),
          eq(invoices.customerId, customer.id),
          inArray(invoices.invoiceStatus, ["open", "closed"]),
        ),
      )
      .returning({ id: invoices.id });
    await billEntriesOnStatement(tx, tenant.clientId, {
      customerId: customer.id,
      statementId: statement.id,
      statementDate: input.statementDate,
      carriedInvoiceIds: carried.map((invoice) => invoice.id),
    });
    // The boxes come from the entries the statement now carries: each once, adding up.
    const boxes = await boxesOfStatements(tx, tenant.clientId, [
      { statementId: statement.id, previousBalance: customer.previousBalance },
    ]);
    await writeStatementBoxes(tx, tenant.clientId, boxes);
    const own = boxes.get(statement.id);
    if (!own) throw new Error("statement boxes missing");
    await startNextPeriod(tx, tenant.clientId, customer.id, {
      previousBalance: own.newBalance,
      ageing: buckets,
      billed: billedFigures(own),
    });
    return { ...statement, ...own };
  });
}
