import { and, eq } from "drizzle-orm";
import { paymentPageMessage, type GatewayStatus } from "@cyclebill/domain";
import { businessToday } from "../../clock.js";
import type { Database, Executor } from "../../db/database.js";
import { customerPaymentMethods, paymentAttempts } from "../../db/tables.js";
import { lockCustomers } from "../ledger/lock-customers.js";
import { moneyTransaction } from "../ledger/money-transaction.js";
import { postEntries } from "../ledger/post-entries.js";
import { ensurePaymentCode } from "./payment-codes.js";
import { queueReceipt } from "./payment-receipts.js";
import { postRefundOffset } from "./refund-offset.js";
import { refreshStoredToken } from "./stored-method-token.js";
import type { AttemptRow } from "./attempt-row.js";
import { setCustomerGatewayState } from "../customers/customer-gateway-state.js";
import { auditStoredMethod, storedMethodsBefore } from "./stored-method-audit.js";
import { auditAttempt } from "./attempt-audit.js";
import { settleLinkPayment } from "../delivery/link-went-out.js";

// Its callers take the row type from here too; it lives apart so the files this one uses can name it.
export type { AttemptRow } from "./attempt-row.js";

/** What the gateway said about an attempt (a bp20post answer, or a query's find). */
export type AttemptAnswer = {
  status: GatewayStatus;
  message: string;
  transId: string;
  mask: string;
  cardType: string;
  authCode: string;
  /** STORED_ID: the network transaction id of a card-on-file charge ("" or absent when none). */
  storedId?: string;
};

/** How an attempt ended when the gateway never got it (or never charged): nothing was moved. */
export type AttemptFailure = { status: "error" | "skipped"; message: string };

/** A person settled an unknown attempt: who, when and why. */
export type AttemptResolution = { userId: number; reason: string; at: Date };

export async function lockedAttempt(tx: Executor, clientId: number, id: number): Promise<AttemptRow | null> {
  const [row] = await tx
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.clientId, clientId), eq(paymentAttempts.id, id)))
    .for("update");
  return row ?? null;
}

export async function readAttempt(db: Database, clientId: number, id: number): Promise<AttemptRow> {
  const [row] = await db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.clientId, clientId), eq(paymentAttempts.id, id)));
  if (!row) throw new Error(`payment attempt ${id} missing`);
  return row;
}

function entryDescription(attempt: AttemptRow, answer: AttemptAnswer): string {
  const mask = answer.mask || attempt.mask;
  const last4 = mask.replace(/[^0-9]/g, "").slice(-4);
  if (attempt.method === "ach") return `ACH payment${last4 ? ` ...${last4}` : ""}`.slice(0, 60);
  const type = answer.cardType || attempt.cardType;
  return `Card payment${type ? ` ${type}` : ""}${last4 ? ` ...${last4}` : ""}`.slice(0, 60);
}

/**
 * Keeps the method the gateway now holds for the customer (the answer's TRANS_ID is its token; a
 * bank account's is a sale's, BluePay taking no $0.00 ACH AUTH). A bank account keeps whether a
 * signed agreement is on file and the entry class its authorization was given under.
 */
async function storeMethod(tx: Executor, attempt: AttemptRow, answer: AttemptAnswer): Promise<void> {
  const ach = attempt.method === "ach";
  const method = {
    kind: attempt.method,
    token: answer.transId,
    mask: answer.mask || attempt.mask,
    cardType: attempt.method === "card" ? answer.cardType || attempt.cardType : "",
    expiry: attempt.method === "card" ? attempt.expiry : "",
    storedId: attempt.method === "card" ? (answer.storedId ?? "").slice(0, 64) : "",
    attemptId: attempt.id,
    storedAt: new Date(),
    tokenAt: attempt.createdAt,
    achSignedAgreement: ach && attempt.achSignedAgreement,
    achEntryClass: ach ? attempt.docType : "",
    // New details clear a bank's "do not debit" (a return or a notification of change).
    doNotDebit: false,
    doNotDebitReason: "",
  };
  const [before] = await storedMethodsBefore(tx, attempt.clientId, attempt.customerId);
  const [after] = await tx
    .insert(customerPaymentMethods)
    .values({ clientId: attempt.clientId, customerId: attempt.customerId, ...method })
    .onConflictDoUpdate({
      target: [customerPaymentMethods.clientId, customerPaymentMethods.customerId],
      set: method,
    })
    .returning();
  await auditStoredMethod(tx, "store", before, after);
  await setCustomerGatewayState(
    tx,
    { clientId: attempt.clientId, customerId: attempt.customerId },
    { transactionId: answer.transId, ...(attempt.autopay ? { autopay: true } : {}) },
  );
}

/** The attempt's customer, when the caller does not already know it. */
async function customerOfAttempt(tx: Executor, clientId: number, attemptId: number): Promise<number | null> {
  const [peek] = await tx
    .select({ customerId: paymentAttempts.customerId })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.clientId, clientId), eq(paymentAttempts.id, attemptId)));
  return peek?.customerId ?? null;
}

/**
 * Records the gateway's answer on a pending or unknown attempt, in one database transaction: an approved sale
 * posts its one payment entry through the ledger writer (unique attempt → entry), an approved
 * AUTH (or a sale asked to save it) stores the method, and the customer's last gateway message is
 * kept, and the receipt is queued. An attempt no longer open was settled by someone else:
 * nothing is done twice. Answers the attempt as it was settled here, or null when it was not.
 */
export async function recordAnswer(
  db: Database,
  clientId: number,
  attemptId: number,
  answer: AttemptAnswer | AttemptFailure,
  /** The attempt's customer, when the caller has it (one read less per charge in a card run). */
  knownCustomerId?: number,
  resolution?: AttemptResolution,
): Promise<AttemptRow | null> {
  return moneyTransaction(db, async (tx) => {
    // Customers first, then the attempt: the order every money path takes.
    const customerId = knownCustomerId ?? (await customerOfAttempt(tx, clientId, attemptId));
    if (customerId === null) return null;
    await lockCustomers(tx, clientId, [customerId]);
    const attempt = await lockedAttempt(tx, clientId, attemptId);
    if (!attempt || attempt.customerId !== customerId) return null;
    if (attempt.status !== "pending" && attempt.status !== "unknown") return null;
    const message = "transId" in answer ? paymentPageMessage(answer) : answer.message;
    let transactionId: number | null = null;
    if ("transId" in answer && answer.status === "approved") {
      // The refund's own TRANS_ID goes on the offset entry, as the sale's went on the payment.
      if (attempt.kind === "refund" || attempt.kind === "void")
        transactionId = await postRefundOffset(tx, { ...attempt, gatewayTransId: answer.transId });
      if (attempt.kind === "sale") {
        const codeId = await ensurePaymentCode(tx, clientId, attempt.method);
        const posted = await postEntries(tx, { clientId }, [
          {
            customerId: attempt.customerId,
            codeId,
            codeType: "payment",
            description: entryDescription(attempt, answer),
            rate: attempt.amount,
            quantity: "1",
            serviceDate: businessToday(),
            datedToday: true,
            createdByUserId: attempt.createdByUserId,
            sourceKey: `payment-attempt:${attempt.id}`,
            gatewayTransId: answer.transId,
          },
        ]);
        transactionId = posted.ids[0] ?? null;
      }
      if (attempt.kind === "auth" || (attempt.kind === "sale" && attempt.saveMethod))
        await storeMethod(tx, attempt, answer);
      else if (attempt.autopay && attempt.usedStoredMethod)
        await setCustomerGatewayState(tx, { clientId, customerId: attempt.customerId }, { autopay: true });
      // The newest approval charged the stored method: its TRANS_ID is the next MASTER_ID.
      if (attempt.kind === "sale" && attempt.usedStoredMethod)
        await refreshStoredToken(tx, attempt, answer.transId);
    }
    const answered = "transId" in answer;
    const [settled] = await tx
      .update(paymentAttempts)
      .set({
        status: answer.status,
        message,
        ...(answered
          ? {
              gatewayTransId: answer.transId,
              mask: answer.mask || attempt.mask,
              cardType: answer.cardType || attempt.cardType,
              authCode: answer.authCode.slice(0, 16),
              storedId: (answer.storedId ?? "").slice(0, 64),
            }
          : {}),
        transactionId,
        ...(resolution
          ? {
              resolvedByUserId: resolution.userId,
              resolvedAt: resolution.at,
              resolutionReason: resolution.reason,
            }
          : {}),
        // An approved sale's money is pending settlement until the gateway reports it settled.
        ...(transactionId !== null && attempt.kind === "sale"
          ? { settlementStatus: "pending" as const }
          : {}),
        settledAt: new Date(),
        updatedAt: new Date(),
      })
      .where(and(eq(paymentAttempts.clientId, clientId), eq(paymentAttempts.id, attemptId)))
      .returning();
    await auditAttempt(tx, resolution ? "resolve" : "answer", attempt, settled, resolution?.reason);
    // A pay-link payment's went_out claim: approved went out; anything else answered did not.
    if (attempt.statementId !== null && attempt.kind === "sale")
      await settleLinkPayment(
        tx,
        { clientId, attemptId, statementId: attempt.statementId },
        answer.status === "approved" ? "done" : "refused",
      );
    // The receipt (or a declined autopay notice) commits with the answer; a job sends it.
    await queueReceipt(tx, attempt, answer.status);
    if (attempt.kind === "sale" || attempt.kind === "auth")
      await setCustomerGatewayState(tx, { clientId, customerId: attempt.customerId }, { message });
    return settled ?? null;
  });
}
