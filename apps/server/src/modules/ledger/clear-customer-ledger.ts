import { and, eq, sql } from "drizzle-orm";
import { closedPeriodMessage, inClosedPeriod } from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate } from "../../db/row-schemas.js";
import { customers } from "../../db/tables.js";
import { nonFieldError } from "../../http/errors.js";
import { booksClosedThrough } from "./closed-period.js";
import { recordCustomerChanges } from "./customer-changes.js";

const oldestRowSchema = z.object({ first: dbDate.nullable() });

/**
 * Clears an archived customer's ledger so it starts afresh when unarchived (the help promises an
 * archived customer's history is not kept): its zero-sum entries go, and every figure kept beside
 * them returns to zero. The caller holds the customer's lock, has checked the balance is zero and
 * removes the invoices. Refused (400, naming the closed date, nothing written) when an entry lies in
 * the client's closed period: removing it would change a month already statemented.
 */
export async function clearCustomerLedger(tx: Executor, clientId: number, customerId: number): Promise<void> {
  const closed = await booksClosedThrough(tx, clientId);
  if (closed !== null) {
    const [oldest] = await queryRows(
      tx,
      sql`select min(service_date)::text as first from transactions
          where client_id = ${clientId} and customer_id = ${customerId}`,
      oldestRowSchema,
    );
    if (oldest?.first && inClosedPeriod(oldest.first, closed))
      throw nonFieldError(closedPeriodMessage(closed));
  }
  // Voiding entries refer to what they void; clear those links first.
  await tx.execute(sql`update transactions set voids_transaction_id = null, reverses_transaction_id = null
                       where client_id = ${clientId} and customer_id = ${customerId}`);
  await tx.execute(
    sql`delete from transactions where client_id = ${clientId} and customer_id = ${customerId}`,
  );
  await tx
    .update(customers)
    .set({
      totalBalance: "0",
      ledgerEntries: 0,
      ledgerAmountTotal: "0",
      mtdCharges: "0",
      mtdPayments: "0",
      mtdCrAdj: "0",
      mtdDbAdj: "0",
      previousBalance: "0",
      lastPayDate: null,
      updatedAt: new Date(),
    })
    .where(and(eq(customers.clientId, clientId), eq(customers.id, customerId)));
  await recordCustomerChanges(tx, clientId, [customerId]);
}
