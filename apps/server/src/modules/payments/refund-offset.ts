import { and, eq } from "drizzle-orm";
import { isReversible, isVoidable } from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { transactions } from "../../db/tables.js";
import { setEntryVoided } from "../ledger/entry-links.js";
import { postEntries } from "../ledger/post-entries.js";
import { offsetEntry } from "../transactions/offset-entry.js";
import { entryState, selectTransactions } from "../transactions/transaction-view.js";
import type { AttemptRow } from "./attempt-row.js";

/**
 * Posts the offset of a refunded payment entry (a void while it is voidable, else a reversal);
 * called by recordAnswer inside its transaction, the customer already locked. Returns the new
 * entry's id, or null when the entry was already taken back.
 */
export async function postRefundOffset(tx: Executor, attempt: AttemptRow): Promise<number | null> {
  if (attempt.refundsTransactionId === null) return null;
  const [entry] = await selectTransactions(
    tx,
    and(eq(transactions.clientId, attempt.clientId), eq(transactions.id, attempt.refundsTransactionId)),
  );
  if (!entry) return null;
  const state = entryState(entry);
  const kind = isVoidable(state) ? "void" : isReversible(state) ? "reversal" : null;
  if (!kind) return null;
  const {
    ids: [offsetId],
  } = await postEntries(tx, { clientId: attempt.clientId }, [
    offsetEntry(entry, kind, {
      createdByUserId: attempt.createdByUserId,
      gatewayTransId: attempt.gatewayTransId || null,
    }),
  ]);
  if (kind === "void") await setEntryVoided(tx, attempt.clientId, entry.id, true);
  return offsetId ?? null;
}
