import { and, asc, eq, gte, inArray, isNull, lte, or } from "drizzle-orm";
import {
  LOOKUP_WINDOW_MS,
  lookupMismatches,
  type GatewayEvidence,
  type GatewayQueryTransaction,
  type SentAttempt,
} from "@cyclebill/domain";
import { currentClock } from "../../clock.js";
import type { Database } from "../../db/database.js";
import { paymentAttempts } from "../../db/tables.js";
import { queryGateway, queryWindowOf } from "./bluepay-client.js";
import { gatewayAccess, type PaymentGateway } from "./payment-gateway.js";
import { recordAnswer, type AttemptRow } from "./record-answer.js";
import { addEvidence, markUnknown } from "./unknown-attempts.js";

// An attempt whose call ended without a usable answer is "unknown" and is never charged again. It
// is settled only by evidence: an stq lookup by the ORDER_ID it sent that finds a record matching
// it in order id, amount, type and account mask (lookupMismatches). A record that differs is kept as
// evidence for a person, never taken as the result; "not found" and unclear answers are asked again
// with backoff for LOOKUP_WINDOW_MS (domain), after which the attempt needs checking by a person.
// A "pending" attempt older than its call's time-out (its process stopped mid-call) becomes unknown.
// The attempt's time and the lookup's window both come from the app's clock (clock.ts).

/** The only "nothing was charged" without a lookup: the request provably never left. */
export const NOT_SENT_MESSAGE = "The payment gateway could not be reached; nothing was charged.";
export const NOT_REFUNDED_MESSAGE = "The payment gateway could not be reached; nothing was refunded.";

const FIRST_BACKOFF_MS = 30_000;
const LONGEST_BACKOFF_MS = 60 * 60_000;

/** When to ask again after `checks` lookups that settled nothing: 30 s, 1 min, 2 min, ... at most 1 h. */
export function nextCheckAfterMs(checks: number): number {
  return Math.min(LONGEST_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, checks - 1));
}

/** What was sent for the attempt, as a found record must match it. */
export function sentOf(attempt: AttemptRow): SentAttempt {
  return {
    orderId: attempt.orderId || String(attempt.id),
    amount: attempt.amount,
    transType: attempt.kind.toUpperCase(),
    mask: attempt.mask,
  };
}

export type SettleResult = "settled" | "pending";

function foundEvidence(found: GatewayQueryTransaction): NonNullable<GatewayEvidence["found"]> {
  return {
    trans_id: found.transId,
    order_id: found.orderId,
    amount: found.amount,
    trans_type: found.transType,
    status: found.rawStatus,
    mask: found.mask,
  };
}

async function askAgainLater(
  db: Database,
  attempt: AttemptRow,
  now: Date,
  evidence: GatewayEvidence,
): Promise<SettleResult> {
  const checks = attempt.gatewayChecks + 1;
  await addEvidence(db, attempt, evidence, {
    gatewayChecks: checks,
    nextCheckAt: new Date(now.getTime() + nextCheckAfterMs(checks)),
  });
  return "pending";
}

/** Asks the gateway about one pending or unknown attempt and records what it shows. */
export async function settleAttempt(
  db: Database,
  given: AttemptRow,
  gateway: PaymentGateway,
  now: () => Date = () => currentClock().now(),
): Promise<SettleResult> {
  let attempt = given;
  if (attempt.status !== "pending" && attempt.status !== "unknown") return "settled";
  const asked = now();
  if (attempt.status === "pending") {
    // Its call may still be running; past twice its time-out the process that made it has stopped.
    if (asked.getTime() - attempt.createdAt.getTime() <= gateway.timeoutMs * 2 + 5_000) return "pending";
    const marked = await markUnknown(db, attempt, {
      at: asked.toISOString(),
      step: "call",
      outcome: "no-answer",
      detail: "the call never ended (the process that made it stopped)",
    });
    if (!marked) return "settled";
    attempt = marked;
  }
  const access = await gatewayAccess(db, gateway, attempt.clientId);
  const sent = sentOf(attempt);
  const found = await queryGateway(
    access.url,
    access.credentials,
    { mode: gateway.mode, orderId: sent.orderId, ...queryWindowOf(attempt.createdAt, asked) },
    { timeoutMs: gateway.timeoutMs },
  );
  const at = asked.toISOString();
  if ("status" in found)
    return askAgainLater(db, attempt, asked, {
      at,
      step: "lookup",
      outcome: "no-answer",
      detail: found.detail,
    });
  if (found.kind === "unclear")
    return askAgainLater(db, attempt, asked, {
      at,
      step: "lookup",
      outcome: "unclear",
      detail: found.detail,
    });
  if (found.kind === "not-found")
    return askAgainLater(db, attempt, asked, {
      at,
      step: "lookup",
      outcome: "not-found",
      detail: `no transaction with ORDER_ID ${sent.orderId} yet`,
    });
  const transaction = found.transaction;
  const differences = lookupMismatches(transaction, sent);
  if (differences.length > 0)
    return askAgainLater(db, attempt, asked, {
      at,
      step: "lookup",
      outcome: "mismatch",
      detail: `a record that is not this attempt's: ${differences.join(", ")}`,
      found: foundEvidence(transaction),
    });
  await addEvidence(db, attempt, {
    at,
    step: "lookup",
    outcome: "matched",
    detail: "found with the same order id, amount, type and account",
    found: foundEvidence(transaction),
  });
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

export type SettleSummary = { settled: number; pending: number };

const OPEN = inArray(paymentAttempts.status, ["pending", "unknown"]);

/**
 * Settles a client's pending and unknown attempts (all, or the given ids) one by one by asking the
 * gateway for their ORDER_ID; a card run calls it for its own attempts before it finishes.
 */
export async function settlePendingAttempts(
  db: Database,
  clientId: number,
  attemptIds: readonly number[] | null,
  gateway: PaymentGateway,
  now: () => Date = () => currentClock().now(),
): Promise<SettleSummary> {
  const scope = [eq(paymentAttempts.clientId, clientId), OPEN];
  if (attemptIds) {
    if (attemptIds.length === 0) return { settled: 0, pending: 0 };
    scope.push(inArray(paymentAttempts.id, [...attemptIds]));
  }
  const open = await db
    .select()
    .from(paymentAttempts)
    .where(and(...scope))
    .orderBy(asc(paymentAttempts.id));
  const summary: SettleSummary = { settled: 0, pending: 0 };
  for (const attempt of open) summary[await settleAttempt(db, attempt, gateway, now)] += 1;
  return summary;
}

/**
 * Every client's open attempts that are due to be asked about again (the settle job), within the
 * lookup window; past it they wait for a person (the needs-checking list) or the daily reconciliation.
 */
export async function settleDueAttempts(
  db: Database,
  gateway: PaymentGateway,
  now: () => Date = () => currentClock().now(),
): Promise<SettleSummary> {
  if (!gateway.url) return { settled: 0, pending: 0 };
  const at = now();
  const open = await db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        OPEN,
        gte(paymentAttempts.createdAt, new Date(at.getTime() - LOOKUP_WINDOW_MS)),
        or(isNull(paymentAttempts.nextCheckAt), lte(paymentAttempts.nextCheckAt, at)),
      ),
    )
    .orderBy(asc(paymentAttempts.clientId), asc(paymentAttempts.id))
    .limit(500);
  const summary: SettleSummary = { settled: 0, pending: 0 };
  for (const attempt of open) {
    // A client whose gateway key was removed meanwhile stays open; the others go on.
    const result = await settleAttempt(db, attempt, gateway, now).catch(() => "pending" as const);
    summary[result] += 1;
  }
  return summary;
}
