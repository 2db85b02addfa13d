import { toAmount } from "../money/money.js";
import type { GatewayAnswer, GatewayQueryTransaction } from "./gateway-answer.js";

// An attempt whose gateway call ended without a usable answer is "unknown" and is settled only by
// evidence: a lookup (stq) by the ORDER_ID it sent that finds a record matching it in order id,
// amount, type and account. "Not found" is never taken as "nothing was charged": lookups go on with
// backoff for LOOKUP_WINDOW_MS, and an attempt still unknown after that needs checking by a person.

/**
 * How long lookups go on. BluePay's daily report of a day exists once the day has closed, and its
 * settlement batches close the next business day; 72 hours cover an attempt made on a Friday evening
 * until Monday's report (our choice; BluePay does not say how soon stq shows a transaction).
 */
export const LOOKUP_WINDOW_MS = 72 * 3_600_000;
/** Kept for the list's flag: an unknown attempt past the lookup window needs a person. */
export const NEEDS_CHECKING_AFTER_MS = LOOKUP_WINDOW_MS;
export const NEEDS_CHECKING_MESSAGE =
  "Needs checking at the gateway: its answer was lost and the gateway has not shown what happened.";
export const UNKNOWN_ANSWER_MESSAGE =
  "The payment gateway's answer was lost or unclear; we are checking with the gateway. Do not pay again yet.";

export function needsCheckingAtGateway(status: string, createdAt: Date, now: Date): boolean {
  return status === "unknown" && now.getTime() - createdAt.getTime() > LOOKUP_WINDOW_MS;
}

const DOCUMENTED_STATUSES = new Set(["1", "0", "E"]);

/**
 * Why an answer cannot be taken as the outcome (null when it can): STATUS=1 without a TRANS_ID
 * (approved, or a duplicate, with nothing to refund later), or a STATUS BluePay does not document.
 */
export function unusableAnswerReason(answer: Pick<GatewayAnswer, "rawStatus" | "transId">): string | null {
  if (!DOCUMENTED_STATUSES.has(answer.rawStatus))
    return `the gateway answered STATUS=${answer.rawStatus.slice(0, 8)}, which BluePay does not document`;
  if (answer.rawStatus === "1" && answer.transId.trim() === "")
    return "the gateway answered STATUS=1 without a TRANS_ID";
  return null;
}

/** What was sent for an attempt, as a found record must match it. */
export type SentAttempt = {
  orderId: string;
  amount: string;
  /** SALE, AUTH, REFUND or VOID as sent. */
  transType: string;
  /** The account mask we know ("" when none); compared by its last four digits. */
  mask: string;
};

const lastFour = (mask: string) => mask.replace(/[^0-9]/g, "").slice(-4);

function sameAmount(found: string, sent: string): boolean {
  try {
    return toAmount(found) === toAmount(sent);
  } catch {
    return false;
  }
}

/**
 * The ways a found record differs from what was sent (empty when it is this attempt's): order id,
 * amount, type and the account's last four digits must all agree. A VOID carries no amount of its own.
 */
export function lookupMismatches(found: GatewayQueryTransaction, sent: SentAttempt): string[] {
  const differences: string[] = [];
  if (found.orderId.trim() !== sent.orderId) differences.push(`order id ${found.orderId || "(none)"}`);
  if (sent.transType !== "VOID" && !sameAmount(found.amount, sent.amount))
    differences.push(`amount ${found.amount || "(none)"}`);
  if (found.transType.trim().toUpperCase() !== sent.transType)
    differences.push(`type ${found.transType || "(none)"}`);
  const sentLast = lastFour(sent.mask);
  if (sentLast === "" || lastFour(found.mask) !== sentLast)
    differences.push(`account ${found.mask || "(none)"}`);
  return differences;
}

/** One thing the gateway said (or did not say) about an unknown attempt, kept for a person. */
export type GatewayEvidence = {
  at: string;
  /** call: the charge itself; lookup: an stq by its ORDER_ID. */
  step: "call" | "lookup";
  outcome: "no-answer" | "unusable" | "bad-stamp" | "not-found" | "unclear" | "mismatch" | "matched";
  detail: string;
  /** A record the lookup found (mismatch/matched). */
  found?: {
    trans_id: string;
    order_id: string;
    amount: string;
    trans_type: string;
    status: string;
    mask: string;
  };
};
