import type { Executor } from "../../db/database.js";
import type { paymentAttempts } from "../../db/tables.js";
import { recordChange } from "../audit/record-change.js";

// A payment attempt in the trail: made, and answered (by the gateway, a lookup or a person with a
// reason). Masks only: the attempt never holds a card or account number, and the trail neither.

type AttemptRecord = typeof paymentAttempts.$inferSelect;

function values(row: AttemptRecord | null | undefined) {
  return (
    row && {
      kind: row.kind,
      source: row.source,
      method: row.method,
      amount: row.amount,
      status: row.status,
      message: row.message,
      mask: row.mask,
      card_type: row.cardType,
      gateway_trans_id: row.gatewayTransId,
      order_id: row.orderId,
      statement_id: row.statementId,
      card_run_id: row.cardRunId,
    }
  );
}

/** Records an attempt made, or its answer: `before` is null for one just made. */
export async function auditAttempt(
  tx: Executor,
  verb: "create" | "answer" | "resolve",
  before: AttemptRecord | null | undefined,
  after: AttemptRecord | null | undefined,
  reason?: string | null,
): Promise<void> {
  const row = after ?? before;
  if (!row) return;
  await recordChange(tx, {
    clientId: row.clientId,
    action: `payment_attempt.${verb}`,
    recordKind: "payment_attempt",
    recordId: row.id,
    customerId: row.customerId,
    before: values(before) ?? null,
    after: values(after) ?? null,
    reason: reason ?? null,
  });
}
