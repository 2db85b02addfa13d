import { and, eq } from "drizzle-orm";
import { statementActionRefusal } from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { statements } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { nonFieldError, notFound } from "../../http/errors.js";
import { getStatement, type StatementDetail } from "./list-statements.js";
import { recordChange } from "../audit/record-change.js";

/**
 * Reopens a processed statement (the spec allows it). Only its status changes: the figures
 * stay as sent and the invoices it carried stay processed.
 */
export async function reopenStatement(
  db: Database,
  tenant: TenantContext,
  id: number,
): Promise<StatementDetail> {
  return db.transaction(async (tx) => {
    const [statement] = await tx
      .select({
        status: statements.invoiceStatus,
        customerId: statements.customerId,
        replacedById: statements.replacedById,
      })
      .from(statements)
      .where(and(eq(statements.clientId, tenant.clientId), eq(statements.id, id)))
      .for("update")
      .limit(1);
    if (!statement) throw notFound();
    const refusal = statementActionRefusal(
      { status: statement.status, replaced: statement.replacedById !== null },
      "reopen",
    );
    if (refusal) throw nonFieldError(refusal);
    await tx
      .update(statements)
      .set({ invoiceStatus: "open" })
      .where(and(eq(statements.clientId, tenant.clientId), eq(statements.id, id)));
    await recordChange(tx, {
      clientId: tenant.clientId,
      action: "statement.reopen",
      recordKind: "statement",
      recordId: id,
      customerId: statement.customerId,
      before: { invoice_status: statement.status },
      after: { invoice_status: "open" },
    });
    return getStatement(tx, tenant, id);
  });
}
