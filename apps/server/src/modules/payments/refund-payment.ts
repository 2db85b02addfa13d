import { and, asc, eq } from "drizzle-orm";
import { PAYMENT_PENDING_MESSAGE, achRefundClass, isReversible, isVoidable } from "@cyclebill/domain";
import { currentClock } from "../../clock.js";
import type { Database } from "../../db/database.js";
import { paymentAttempts } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { HttpError, nonFieldError } from "../../http/errors.js";
import { NOT_REVERSIBLE_MESSAGE, NOT_VOIDABLE_MESSAGE } from "../transactions/change-transaction.js";
import {
  entryState,
  findTransaction,
  transactionToApi,
  type TransactionOutput,
} from "../transactions/transaction-view.js";
import { buildRequest, callGateway, callOptionsOf } from "./bluepay-client.js";
import { gatewayAccess, type PaymentGateway } from "./payment-gateway.js";
import type { AttemptRow } from "./attempt-row.js";
import { readAttempt, recordAnswer } from "./record-answer.js";
import { NOT_REFUNDED_MESSAGE, settleAttempt } from "./settle-attempts.js";
import { callEvidenceOf, markUnknown, openAttempt } from "./unknown-attempts.js";

// Taking back a card or ACH payment: the money goes back through the gateway first (a REFUND of the
// payment's TRANS_ID, which the gateway turns into a void while unsettled), and only an approved
// refund posts the void or reversal, in the same database transaction that records the approval.

export const REFUND_PENDING_MESSAGE = PAYMENT_PENDING_MESSAGE;

async function refundsOf(db: Database, clientId: number, entryId: number): Promise<AttemptRow[]> {
  return db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.clientId, clientId), eq(paymentAttempts.refundsTransactionId, entryId)))
    .orderBy(asc(paymentAttempts.id));
}

/** The answer to the staff: the offset entry once approved; 400 with the gateway's message, or 409 while pending. */
async function answerOf(
  db: Database,
  tenant: TenantContext,
  attempt: AttemptRow,
): Promise<TransactionOutput> {
  if (attempt.status === "pending" || attempt.status === "unknown")
    throw new HttpError(409, { detail: REFUND_PENDING_MESSAGE });
  if (attempt.status !== "approved" || attempt.transactionId === null) throw nonFieldError(attempt.message);
  return transactionToApi(await findTransaction(db, tenant, attempt.transactionId));
}

/**
 * Void or reverse a ledger entry that is a gateway payment: refund it at the gateway, post the
 * offset when approved. Null when the entry is not a gateway payment (the caller voids or reverses
 * it as any other entry).
 */
export async function refundGatewayPayment(
  db: Database,
  gateway: PaymentGateway,
  tenant: TenantContext,
  id: number,
  asked: "void" | "reversal",
): Promise<TransactionOutput | null> {
  const entry = await findTransaction(db, tenant, id);
  if (!entry.gatewayTransId || entry.reversesTransactionId !== null || entry.voidsTransactionId !== null)
    return null;
  const state = entryState(entry);
  if (asked === "void" && !isVoidable(state)) throw nonFieldError(NOT_VOIDABLE_MESSAGE);
  if (asked === "reversal" && !isReversible(state)) throw nonFieldError(NOT_REVERSIBLE_MESSAGE);

  const earlier = await refundsOf(db, tenant.clientId, id);
  for (const attempt of earlier.filter((row) => row.status === "pending" || row.status === "unknown")) {
    await settleAttempt(db, attempt, gateway);
    const now = await readAttempt(db, tenant.clientId, attempt.id);
    if (now.status === "pending" || now.status === "unknown" || now.status === "approved")
      return answerOf(db, tenant, now);
  }
  const [payment] = await db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.clientId, tenant.clientId), eq(paymentAttempts.transactionId, id)));
  const access = await gatewayAccess(db, gateway, tenant.clientId);
  const attempt = await openAttempt(
    db,
    gateway.installationId,
    {
      clientId: tenant.clientId,
      customerId: entry.customerId,
      // One refund at a time per entry: a concurrent second request meets this key.
      idempotencyKey: `refund:${id}:${earlier.length}`,
      kind: "refund",
      source: "staff",
      method: payment?.method ?? "card",
      amount: entry.amount,
      masterId: entry.gatewayTransId,
      mask: payment?.mask ?? "",
      cardType: payment?.cardType ?? "",
      name1: payment?.name1 ?? "",
      name2: payment?.name2 ?? "",
      refundsTransactionId: id,
      docType: payment?.method === "ach" ? achRefundClass(payment.docType) : "",
      createdByUserId: tenant.user.id,
      // The app's clock, as the query about a lost answer will be (not the database's now()).
      createdAt: currentClock().now(),
    },
    { refuseWhileInFlight: false, boundByBalance: false },
  );
  if (!attempt) throw new HttpError(409, { detail: REFUND_PENDING_MESSAGE });
  const fields = buildRequest(access.credentials, {
    transType: "REFUND",
    mode: gateway.mode,
    amount: entry.amount,
    masterId: entry.gatewayTransId,
    orderId: attempt.orderId,
    // An ACH refund says so and names its class (a credit: PPD, or CCD for a business).
    ...(attempt.method === "ach"
      ? { paymentType: "ACH" as const, docType: achRefundClass(attempt.docType) }
      : {}),
  });
  const answer = await callGateway(access.url, fields, callOptionsOf(access.credentials, gateway.timeoutMs));
  if (answer.status !== "no-answer") await recordAnswer(db, tenant.clientId, attempt.id, answer);
  else if (!answer.maybeProcessed)
    await recordAnswer(db, tenant.clientId, attempt.id, {
      status: "error",
      message: NOT_REFUNDED_MESSAGE,
    });
  else {
    const unknown = await markUnknown(db, attempt, callEvidenceOf(answer, currentClock().now()));
    if (unknown) await settleAttempt(db, unknown, gateway);
  }
  return answerOf(db, tenant, await readAttempt(db, tenant.clientId, attempt.id));
}
