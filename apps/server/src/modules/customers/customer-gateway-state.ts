import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { customers } from "../../db/tables.js";

// The customers module owns the customers table. The gateway's news about a customer (the stored
// method's MASTER_ID, the last answer's message, autopay on or off) is recorded through this.

export type CustomerGatewayState = {
  /** The stored method's current TRANS_ID (the next MASTER_ID); "" when the method is removed. */
  transactionId?: string;
  /** The gateway's last message for the customer (kept to 255 characters). */
  message?: string;
  autopay?: boolean;
};

/**
 * Records the state on the customer. `whileTransactionId`: only while the customer still holds that
 * MASTER_ID (a late answer never overwrites a newer token).
 */
export async function setCustomerGatewayState(
  tx: Executor,
  customer: { clientId: number; customerId: number },
  state: CustomerGatewayState,
  whileTransactionId?: string,
): Promise<void> {
  await tx
    .update(customers)
    .set({
      ...(state.transactionId === undefined ? {} : { bluepayTransactionId: state.transactionId }),
      ...(state.message === undefined ? {} : { bluepayTransactionMessage: state.message.slice(0, 255) }),
      ...(state.autopay === undefined ? {} : { autopayFlag: state.autopay }),
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(customers.clientId, customer.clientId),
        eq(customers.id, customer.customerId),
        whileTransactionId === undefined ? undefined : eq(customers.bluepayTransactionId, whileTransactionId),
      ),
    );
}
