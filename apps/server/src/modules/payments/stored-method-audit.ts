import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { customerPaymentMethods } from "../../db/tables.js";
import { recordChange } from "../audit/record-change.js";

// A customer's stored card or bank account in the trail. What the gateway holds for us (the token,
// the network's stored id) never is: the trail shows what a person recognises, the mask and expiry.

type MethodRow = typeof customerPaymentMethods.$inferSelect;

/** The customer's stored methods now, locked, as the trail's "before". */
export async function storedMethodsBefore(
  tx: Executor,
  clientId: number,
  customerId: number,
): Promise<MethodRow[]> {
  return tx
    .select()
    .from(customerPaymentMethods)
    .where(
      and(eq(customerPaymentMethods.clientId, clientId), eq(customerPaymentMethods.customerId, customerId)),
    )
    .for("update");
}

function values(row: MethodRow | null | undefined) {
  return (
    row && {
      kind: row.kind,
      mask: row.mask,
      card_type: row.cardType,
      expiry: row.expiry,
      do_not_debit: row.doNotDebit,
      do_not_debit_reason: row.doNotDebitReason,
      ach_signed_agreement: row.achSignedAgreement,
      ach_entry_class: row.achEntryClass,
    }
  );
}

/** Records the change of a customer's stored method: stored (or replaced), marked, or forgotten. */
export async function auditStoredMethod(
  tx: Executor,
  verb: "store" | "mark_do_not_debit" | "delete",
  before: MethodRow | null | undefined,
  after: MethodRow | null | undefined,
): Promise<void> {
  const row = after ?? before;
  if (!row) return;
  await recordChange(tx, {
    clientId: row.clientId,
    action: `payment_method.${verb}`,
    recordKind: "payment_method",
    recordId: row.customerId,
    customerId: row.customerId,
    before: values(before) ?? null,
    after: values(after) ?? null,
  });
}
