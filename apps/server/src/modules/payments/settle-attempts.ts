import { and, asc, eq, inArray, isNull, lte, or } from "drizzle-orm";
import { currentClock } from "../../clock.js";
import type { Database } from "../../db/database.js";
import { paymentAttempts } from "../../db/tables.js";
import { queryGateway, queryWindowOf } from "./bluepay-client.js";
import { gatewayAccess, type PaymentGateway } from "./payment-gateway.js";
import { recordAnswer, type AttemptRow } from "./record-answer.js";

// An attempt whose answer was lost stays pending until the gateway says what became of its
// ORDER_ID (the attempt id). It is never charged again. Only a definitive stq answer settles it:
// a record found → its answer is recorded (an approved sale posts then); the explicit empty
// result, from a window that covers the attempt, once the gateway can no longer be working on it
// → nothing was charged. Anything else (no answer, an error, an HTML page, a 5xx, an unknown
// shape) leaves it pending, asked again with backoff; after NEEDS_CHECKING_AFTER_MS (domain) staff see it
// as "needs checking at the gateway". The attempt's time and the query's window both come from
// the app's clock (clock.ts), never the database's.

export const NOT_CHARGED_MESSAGE = "No answer from the payment gateway; nothing was charged.";
export const NOT_REFUNDED_MESSAGE = "No answer from the payment gateway; nothing was refunded.";

const FIRST_BACKOFF_MS = 30_000;
const LONGEST_BACKOFF_MS = 30 * 60_000;

/** When to ask again after `checks` unclear answers: 30 s, 1 min, 2 min, ... at most 30 min. */
export function nextCheckAfterMs(checks: number): number {
  return Math.min(LONGEST_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, checks - 1));
}

/**
 * "Not found" is final only when the gateway can no longer be working on the call (its time-out,
 * twice, plus slack, has passed) and the attempt's time is not in this clock's future (a window
 * built around a time from another clock might miss the transaction).
 */
function notFoundIsFinal(attempt: AttemptRow, gateway: PaymentGateway, now: Date): boolean {
  const age = now.getTime() - attempt.createdAt.getTime();
  return age > gateway.timeoutMs * 2 + 5_000;
}

export type SettleResult = "settled" | "pending";

async function askAgainLater(db: Database, attempt: AttemptRow, now: Date): Promise<SettleResult> {
  const checks = attempt.gatewayChecks + 1;
  await db
    .update(paymentAttempts)
    .set({ gatewayChecks: checks, nextCheckAt: new Date(now.getTime() + nextCheckAfterMs(checks)) })
    .where(
      and(
        eq(paymentAttempts.clientId, attempt.clientId),
        eq(paymentAttempts.id, attempt.id),
        eq(paymentAttempts.status, "pending"),
      ),
    );
  return "pending";
}

/** Asks the gateway about one pending attempt and records what it says. */
export async function settleAttempt(
  db: Database,
  attempt: AttemptRow,
  gateway: PaymentGateway,
  now: () => Date = () => currentClock().now(),
): Promise<SettleResult> {
  if (attempt.status !== "pending") return "settled";
  const access = await gatewayAccess(db, gateway, attempt.clientId);
  const asked = now();
  const found = await queryGateway(
    access.url,
    access.credentials,
    { mode: gateway.mode, orderId: String(attempt.id), ...queryWindowOf(attempt.createdAt, asked) },
    { timeoutMs: gateway.timeoutMs },
  );
  // No answer to the query either, or one that says nothing definite: ask again later.
  if ("status" in found || found.kind === "unclear") return askAgainLater(db, attempt, asked);
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
  if (notFoundIsFinal(attempt, gateway, asked)) {
    const taking = attempt.kind === "refund" || attempt.kind === "void";
    await recordAnswer(db, attempt.clientId, attempt.id, {
      status: "error",
      message: taking ? NOT_REFUNDED_MESSAGE : NOT_CHARGED_MESSAGE,
    });
    return "settled";
  }
  return "pending";
}

export type SettleSummary = { settled: number; pending: number };

async function settleEach(
  db: Database,
  pending: AttemptRow[],
  gateway: PaymentGateway,
  now: () => Date,
): Promise<SettleSummary> {
  const summary: SettleSummary = { settled: 0, pending: 0 };
  for (const attempt of pending) {
    const result = await settleAttempt(db, attempt, gateway, now);
    summary[result] += 1;
  }
  return summary;
}

/**
 * Settles a client's pending attempts (all, or the given ids) one by one by asking the gateway
 * for their ORDER_ID; a card run calls it for its own attempts before it finishes.
 */
export async function settlePendingAttempts(
  db: Database,
  clientId: number,
  attemptIds: readonly number[] | null,
  gateway: PaymentGateway,
  now: () => Date = () => currentClock().now(),
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
  return settleEach(db, pending, gateway, now);
}

/** Every client's pending attempts that are due to be asked about again (the settle job). */
export async function settleDueAttempts(
  db: Database,
  gateway: PaymentGateway,
  now: () => Date = () => currentClock().now(),
): Promise<SettleSummary> {
  if (!gateway.url) return { settled: 0, pending: 0 };
  const pending = await db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.status, "pending"),
        or(isNull(paymentAttempts.nextCheckAt), lte(paymentAttempts.nextCheckAt, now())),
      ),
    )
    .orderBy(asc(paymentAttempts.clientId), asc(paymentAttempts.id))
    .limit(500);
  const summary: SettleSummary = { settled: 0, pending: 0 };
  for (const attempt of pending) {
    // A client whose gateway key was removed meanwhile stays pending; the others go on.
    const result = await settleAttempt(db, attempt, gateway, now).catch(() => "pending" as const);
    summary[result] += 1;
  }
  return summary;
}
