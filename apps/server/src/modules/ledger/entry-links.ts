import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { transactions } from "../../db/tables.js";

// Links between entries and the documents that carry them. They never move a balance, but they
// are writes of the ledger table, so they live here with every other one.

/** Puts entries on an invoice (the caller has locked the invoice and checked each entry). */
export async function attachEntriesToInvoice(
  tx: Executor,
  clientId: number,
  invoiceId: number,
  entryIds: readonly number[],
): Promise<void> {
  if (entryIds.length === 0) return;
  await tx
    .update(transactions)
    .set({ invoiceId, transactionStatus: "attached" })
    .where(and(eq(transactions.clientId, clientId), inArray(transactions.id, [...entryIds])));
}

/** Takes every entry off an invoice (back to new); the entries themselves are untouched. */
export async function detachInvoiceEntries(
  tx: Executor,
  clientId: number,
  invoiceId: number,
): Promise<number[]> {
  const detached = await tx
    .update(transactions)
    .set({ invoiceId: null, transactionStatus: "new" })
    .where(and(eq(transactions.clientId, clientId), eq(transactions.invoiceId, invoiceId)))
    .returning({ id: transactions.id });
  return detached.map((row) => row.id).sort((a, b) => a - b);
}

/** Marks an entry voided (its voiding entry was posted) or counting again (its voiding entry was deleted). */
export async function setEntryVoided(
  tx: Executor,
  clientId: number,
  entryId: number,
  voided: boolean,
): Promise<void> {
  await tx
    .update(transactions)
    .set({ voided })
    .where(and(eq(transactions.clientId, clientId), eq(transactions.id, entryId)));
}
