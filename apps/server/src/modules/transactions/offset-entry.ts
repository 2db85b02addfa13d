import { offsettingLedgerAmount } from "@cyclebill/domain";
import { businessToday } from "../../clock.js";
import type { NewLedgerEntry } from "../ledger/post-entries.js";
import type { TransactionView } from "./transaction-view.js";

/**
 * The offsetting entry of `entry` (a void or a reversal): same code and amount, opposite effect,
 * dated today. Staff voids and refunded payments post the same entry; only who made it differs.
 */
export function offsetEntry(
  entry: TransactionView,
  kind: "void" | "reversal",
  by: { createdByUserId: number | null; gatewayTransId?: string | null },
): NewLedgerEntry {
  return {
    customerId: entry.customerId,
    codeId: entry.codeId,
    codeType: entry.codeType,
    description: `${kind === "void" ? "VOID" : "REVERSAL"}: ${entry.description}`.slice(0, 60),
    quantity: entry.quantity,
    rate: entry.rate,
    serviceDate: businessToday(),
    datedToday: true,
    unitOfMeasureId: entry.unitOfMeasureId,
    transactionType: kind === "void" ? "voids_a_transaction" : "user_or_scanner",
    ...by,
    offsets: {
      kind,
      entryId: entry.id,
      amount: entry.amount,
      ledgerAmount: offsettingLedgerAmount(entry.ledgerAmount),
    },
  };
}
