import { and, eq, inArray, or } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { customerPaymentMethods } from "../../db/tables.js";
import type { AttemptRow } from "./attempt-row.js";
import { setCustomerGatewayState } from "../customers/customer-gateway-state.js";
import { auditStoredMethod, storedMethodsBefore } from "./stored-method-audit.js";

// BluePay keeps a transaction's card (or bank account) data three years from that transaction, and
// a sale by MASTER_ID copies the account onto the new transaction. So after each approved charge of
// the stored method its TRANS_ID becomes the token (the next MASTER_ID): a method charged at least
// once in three years never dies. The STORED_ID stays the first card-on-file answer's network id,
// as the card networks ask every later charge to carry.

/**
 * After an approved sale of the customer's stored method (inside the transaction recording it):
 * the sale's TRANS_ID becomes the method's token, only while the method is still the one the
 * attempt charged (a late answer never overwrites a method stored since, nor a newer token).
 */
export async function refreshStoredToken(tx: Executor, attempt: AttemptRow, transId: string): Promise<void> {
  if (transId === "" || attempt.masterId === "" || transId === attempt.masterId) return;
  const refreshed = await tx
    .update(customerPaymentMethods)
    .set({ token: transId, tokenAt: attempt.createdAt })
    .where(
      and(
        eq(customerPaymentMethods.clientId, attempt.clientId),
        eq(customerPaymentMethods.customerId, attempt.customerId),
        eq(customerPaymentMethods.token, attempt.masterId),
      ),
    )
    .returning({ token: customerPaymentMethods.token });
  if (refreshed.length === 0) return;
  await setCustomerGatewayState(
    tx,
    { clientId: attempt.clientId, customerId: attempt.customerId },
    { transactionId: transId },
    attempt.masterId,
  );
}

/** The customer's stored bank account this attempt used (or stored): marked do-not-debit. */
export async function markDoNotDebit(tx: Executor, attempt: AttemptRow, reason: string): Promise<void> {
  const tokens = [attempt.masterId, attempt.gatewayTransId].filter((token) => token !== "");
  const before = await storedMethodsBefore(tx, attempt.clientId, attempt.customerId);
  const marked = await tx
    .update(customerPaymentMethods)
    .set({ doNotDebit: true, doNotDebitReason: reason.slice(0, 160) })
    .where(
      and(
        eq(customerPaymentMethods.clientId, attempt.clientId),
        eq(customerPaymentMethods.customerId, attempt.customerId),
        eq(customerPaymentMethods.kind, "ach"),
        or(
          tokens.length > 0 ? inArray(customerPaymentMethods.token, tokens) : undefined,
          eq(customerPaymentMethods.attemptId, attempt.id),
        ),
      ),
    )
    .returning();
  for (const row of marked)
    await auditStoredMethod(
      tx,
      "mark_do_not_debit",
      before.find((old) => old.kind === row.kind),
      row,
    );
}
