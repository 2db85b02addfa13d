import type { Executor } from "../../db/database.js";
import type { invoices } from "../../db/tables.js";
import { recordChange } from "../audit/record-change.js";

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
  await recordChange(tx, {
    clientId: record.clientId,
    action,
    recordKind: "invoice",
    recordId: record.id,
    customerId: record.customerId ?? null,
    before,
    after,
    fields: { omit: ["clientId", "id", "createdAt"] },
  });
}
