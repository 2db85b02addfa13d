import { and, eq } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { gatewayEvents, paymentAttempts } from "../../db/tables.js";
import { moneyTransaction } from "../ledger/money-transaction.js";

// The one door through which what the gateway reports after its first answer reaches our books:
// the daily reports (reconciliation), Trans Notify posts (once a lookup confirms them) and a
// person all call applyGatewayEvent. The event's unique key (client, kind, its gateway record)
// makes a report read twice, or a post and a report of the same return, apply once.

export type GatewayEventKind = "settled" | "returned" | "charged_back" | "chargeback_reversed" | "noc";

export type GatewayEventInput = {
  clientId: number;
  kind: GatewayEventKind;
  /** The event's own record at the gateway (a REJECT's TRANS_ID); for "settled", the sale's. */
  gatewayTransId: string;
  /** The TRANS_ID of our sale the event is about. */
  originalTransId: string;
  /** R01… for returns, C01… for a NOC, the network's reason code for a chargeback; "" for settled. */
  code: string;
  reason: string;
  /** Dollars as a decimal string. */
  amount: string;
  /** YYYY-MM-DD: the day the gateway dated it (settlement date, return date). */
  date: string;
  source: "report" | "notify" | "manual";
  /** NOC: the corrected data, masked. */
  correctedData?: string;
  createdByUserId?: number | null;
};

export type AppliedGatewayEvent = {
  /** false: this event was applied before (or matched nothing of ours and was only recorded). */
  applied: boolean;
  eventId: number | null;
  attemptId: number | null;
};

/** Records one gateway event and does what it means for the books, once. */
export async function applyGatewayEvent(
  db: Database,
  event: GatewayEventInput,
): Promise<AppliedGatewayEvent> {
  return moneyTransaction(db, async (tx) => {
    const [attempt] = await tx
      .select({ id: paymentAttempts.id, customerId: paymentAttempts.customerId })
      .from(paymentAttempts)
      .where(
        and(
          eq(paymentAttempts.clientId, event.clientId),
          eq(paymentAttempts.gatewayTransId, event.originalTransId),
          eq(paymentAttempts.kind, "sale"),
        ),
      );
    const [inserted] = await tx
      .insert(gatewayEvents)
      .values({
        clientId: event.clientId,
        kind: event.kind,
        gatewayTransId: event.gatewayTransId,
        originalTransId: event.originalTransId,
        attemptId: attempt?.id ?? null,
        customerId: attempt?.customerId ?? null,
        code: event.code.slice(0, 8),
        reason: event.reason,
        amount: event.amount,
        eventDate: event.date,
        source: event.source,
        correctedData: (event.correctedData ?? "").slice(0, 120),
        createdByUserId: event.createdByUserId ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: gatewayEvents.id });
    if (!inserted) return { applied: false, eventId: null, attemptId: attempt?.id ?? null };
    if (attempt && event.kind === "settled")
      await tx
        .update(paymentAttempts)
        .set({ settlementStatus: "settled", settledOn: event.date, updatedAt: new Date() })
        .where(and(eq(paymentAttempts.clientId, event.clientId), eq(paymentAttempts.id, attempt.id)));
    return { applied: attempt !== undefined, eventId: inserted.id, attemptId: attempt?.id ?? null };
  });
}
