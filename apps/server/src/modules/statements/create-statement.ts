import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { customers, statements } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError } from "../../http/errors.js";
import { writeStatements } from "./write-statements.js";

export type StatementRow = typeof statements.$inferSelect;
export type StatementDelivery = StatementRow["delivery"];

export type CreateStatementInput = {
  customerId: number;
  /** YYYY-MM-DD; the statement bills the entries dated up to this day. */
  statementDate: string;
  /** The pool it was printed in (test fixtures of printed statements). */
  poolId?: number | null;
  productionRunId?: number | null;
  delivery?: StatementDelivery;
};

/**
 * One customer's statement outside a production run (the demo seed's history and test fixtures):
 * the customer row locked as postings lock it, then the production run's own statement writer
 * (writeStatements) for that one customer, so it bills, carries and boxes exactly as a run would.
 */
export async function createStatement(
  db: Executor,
  tenant: Pick<TenantContext, "clientId">,
  input: CreateStatementInput,
): Promise<StatementRow> {
  return db.transaction(async (tx) => {
    const [customer] = await tx
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.clientId, tenant.clientId), eq(customers.id, input.customerId)))
      .for("update")
      .limit(1);
    if (!customer) throw fieldError("customer", "Invalid customer - object does not exist.");
    const written = await writeStatements(
      tx,
      {
        clientId: tenant.clientId,
        productionRunId: input.productionRunId ?? null,
        statementDate: input.statementDate,
      },
      [{ customerId: customer.id, delivery: input.delivery ?? "mail" }],
    );
    const statementId = written.statementIds.get(customer.id);
    const own = and(eq(statements.clientId, tenant.clientId), eq(statements.id, statementId ?? 0));
    if (input.poolId != null) await tx.update(statements).set({ poolId: input.poolId }).where(own);
    const [statement] = await tx.select().from(statements).where(own);
    if (!statement) throw new Error("statement not created");
    return statement;
  });
}
