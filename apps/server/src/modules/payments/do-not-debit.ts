import { and, eq } from "drizzle-orm";
import { DO_NOT_DEBIT_MESSAGE } from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { customerPaymentMethods } from "../../db/tables.js";
import { nonFieldError } from "../../http/errors.js";

/**
 * Refuses (400, before anything is saved or sent) a debit of a stored bank account the bank
 * returned as closed, wrong or unauthorized, or corrected by a NOC: card runs and autopay record the
 * customer as skipped with this message, staff and the public page see it. Storing new details
 * clears the mark. Only ACH can carry it, so card charges cost no read.
 */
export async function refuseDoNotDebit(
  db: Executor,
  clientId: number,
  customerId: number,
  stored: { kind: "card" | "ach"; token: string } | null,
): Promise<void> {
  if (stored?.kind !== "ach") return;
  const [method] = await db
    .select({
      doNotDebit: customerPaymentMethods.doNotDebit,
      reason: customerPaymentMethods.doNotDebitReason,
    })
    .from(customerPaymentMethods)
    .where(
      and(
        eq(customerPaymentMethods.clientId, clientId),
        eq(customerPaymentMethods.customerId, customerId),
        eq(customerPaymentMethods.token, stored.token),
      ),
    );
  if (method?.doNotDebit)
    throw nonFieldError(method.reason ? `${DO_NOT_DEBIT_MESSAGE} ${method.reason}` : DO_NOT_DEBIT_MESSAGE);
}
