import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { paymentAttempts } from "../../db/tables.js";
import { queryGateway, reportRangeAround } from "./bluepay-client.js";
import { gatewayAccess, type PaymentGateway } from "./payment-gateway.js";
import { recordAnswer, type AttemptRow } from "./record-answer.js";

// An attempt whose answer was lost stays pending until the gateway says what became of its
// ORDER_ID (the attempt id). It is never charged again: found → its answer is recorded (an approved
// sale posts then); not found once the gateway can no longer be working on it → nothing was
// charged, recorded as an error.

export const NOT_CHARGED_MESSAGE = "No answer from the payment gateway; nothing was charged.";

/** How long after the attempt was saved a "not found" is final: the call's time-out, twice, plus slack. */
function settledNotFound(attempt: AttemptRow, gateway: PaymentGateway, now: Date): boolean {
  return now.getTime() - attempt.createdAt.getTime() > gateway.timeoutMs * 2 + 5_000;
}

export type SettleResult = "settled" | "pending";

/** Asks the gateway about one pending attempt and records what it says. */
export async function settleAttempt(
  db: Database,
  attempt: AttemptRow,
  gateway: PaymentGateway,
  now: () => Date = () => new Date(),
): Promise<SettleResult> {
  if (attempt.status !== "pending") return "settled";
  const access = await gatewayAccess(db, gateway, attempt.clientId);
  const found = await queryGateway(
    access.url,
    access.credentials,
    { mode: gateway.mode, orderId: String(attempt.id), ...reportRangeAround(attempt.createdAt) },
    { timeoutMs: gateway.timeoutMs },
  );
  if ("status" in found) return "pending"; // no answer to the query either: ask again later
  if (found.kind === "found") {
    const transaction = found.transaction;
    await recordAnswer(db, attempt.clientId, attempt.id, {
      status: transaction.status,
      message: transaction.message,
      transId: transaction.transId,
      mask: transaction.mask,
      cardType: transaction.cardType,
      authCode: transaction.authCode,
    });
    return "settled";
  }
  if (found.kind === "not-found" && settledNotFound(attempt, gateway, now())) {
    await recordAnswer(db, attempt.clientId, attempt.id, { status: "error", message: NOT_CHARGED_MESSAGE });
    return "settled";
  }
  return "pending";
}

export type SettleSummary = { settled: number; pending: number };

/**
 * Settles a client's pending attempts (all, or the given ids) one by one by asking the gateway
 * for their ORDER_ID; a card run calls it for its own attempts before it finishes.
 */
export async function settlePendingAttempts(
  db: Database,
  clientId: number,
  attemptIds: readonly number[] | null,
  gateway: PaymentGateway,
  now: () => Date = () => new Date(),
): Promise<SettleSummary> {
  const scope = [eq(paymentAttempts.clientId, clientId), eq(paymentAttempts.status, "pending")];
  if (attemptIds) {
    if (attemptIds.length === 0) return { settled: 0, pending: 0 };
    scope.push(inArray(paymentAttempts.id, [...attemptIds]));
  }
  const pending = await db
    .select()
    .from(paymentAttempts)
    .where(and(...scope))
    .orderBy(asc(paymentAttempts.id));
  const summary: SettleSummary = { settled: 0, pending: 0 };
  for (const attempt of pending) {
    const result = await settleAttempt(db, attempt, gateway, now);
    summary[result] += 1;
  }
  return summary;
}
