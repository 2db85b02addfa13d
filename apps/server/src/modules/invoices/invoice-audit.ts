import type { Executor } from "../../db/database.js";
import type { invoices } from "../../db/tables.js";
import { changesBetween } from "../audit/audit-changes.js";
import { recordAudit } from "../audit/record-audit.js";

type InvoiceValues = Partial<typeof invoices.$inferSelect>;

/** An invoice's change in its client's trail (a deleted invoice keeps every field it had). */
export async function auditInvoice(
  tx: Executor,
  action: string,
  before: InvoiceValues | null,
  after: InvoiceValues | null,
): Promise<void> {
  const record = after ?? before;
  if (!record?.id || record.clientId === undefined) return;
  await recordAudit(tx, {
    clientId: record.clientId,
    action,
    recordKind: "invoice",
    recordId: record.id,
    customerId: record.customerId ?? null,
    changes: changesBetween(before, after, { omit: ["clientId", "id", "createdAt"] }),
  });
}
