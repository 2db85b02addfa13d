import { and, eq, inArray, sql } from "drizzle-orm";
import {
  compareAmounts,
  paymentOverBalanceMessage,
  subtractAmounts,
  toAmount,
  UNKNOWN_ANSWER_MESSAGE,
  type GatewayEvidence,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDecimal, dbInt } from "../../db/row-schemas.js";
import { paymentAttempts } from "../../db/tables.js";
import { HttpError, fieldError } from "../../http/errors.js";
import { lockCustomers } from "../ledger/lock-customers.js";
import { moneyTransaction } from "../ledger/money-transaction.js";
import { orderIdOf } from "../secrets/installation-id.js";
import type { AttemptRow } from "./attempt-row.js";
import type { NoAnswer } from "./bluepay-client.js";
import { auditAttempt } from "./attempt-audit.js";
import { claimLinkPayment, holdStatementPart } from "../delivery/link-went-out.js";

// Opening an attempt and keeping what the gateway said about an unknown one. A customer is never
// charged again while one of its sales is pending (call not ended) or unknown (ended without a
// usable answer): the check, the bound on a public payment and the insert happen in one transaction
// holding the customer's lock, so parallel requests (on any number of processes) see each other.

export const STATEMENT_WITHDRAWN_MESSAGE =
  "This statement was withdrawn (its production run was undone); nothing was charged. Open the pay link of your newest statement.";

export const IN_FLIGHT_MESSAGE =
  "A payment for this customer is still being confirmed with the payment gateway; no new charge can be made until it is settled.";

type NewAttempt = typeof paymentAttempts.$inferInsert;

export type OpenRules = {
  /** Refuse (409) while another sale of the customer is pending or unknown. */
  refuseWhileInFlight: boolean;
  /** Refuse (400) an amount above the balance owed less the sales in flight (the public page). */
  boundByBalance: boolean;
};

/** The customer's sales in flight (pending or unknown): how many, and their total. */
const inFlightRowSchema = z.object({ count: dbInt, total: dbDecimal.nullable() });

/**
 * Saves and commits a new attempt with its ORDER_ID (this installation's id and the attempt's), or
 * answers null when its idempotency key is already taken (the caller replays that attempt).
 */
export async function openAttempt(
  db: Database,
  installationId: string,
  values: NewAttempt,
  rules: OpenRules,
): Promise<AttemptRow | null> {
  return moneyTransaction(db, async (tx) => {
    // A payment through a statement's pay link (the only attempts that name a statement) is claimed
    // in went_out before the gateway is called; its run part is locked before the customer, as undo does.
    const statementId = values.statementId ?? null;
    const part = statementId === null ? null : await holdStatementPart(tx, values.clientId, statementId);
    if (part === "withdrawn") throw new HttpError(409, { detail: STATEMENT_WITHDRAWN_MESSAGE });
    const locked = await lockCustomers(tx, values.clientId, [values.customerId]);
    const [taken] = await tx
      .select({ id: paymentAttempts.id })
      .from(paymentAttempts)
      .where(
        and(
          eq(paymentAttempts.clientId, values.clientId),
          eq(paymentAttempts.idempotencyKey, values.idempotencyKey),
        ),
      );
    if (taken) return null;
    if (rules.refuseWhileInFlight || rules.boundByBalance) {
      const [flight] = await queryRows(
        tx,
        sql`select count(*) as count, sum(amount)::text as total from payment_attempts
            where client_id = ${values.clientId} and customer_id = ${values.customerId}
              and kind = 'sale' and status in ('pending', 'unknown')`,
        inFlightRowSchema,
      );
      if (rules.refuseWhileInFlight && (flight?.count ?? 0) > 0)
        throw new HttpError(409, { detail: IN_FLIGHT_MESSAGE });
      if (rules.boundByBalance) {
        const balance = toAmount(locked.get(values.customerId)?.totalBalance ?? "0");
        const owed = toAmount(subtractAmounts(balance, flight?.total ?? "0"));
        if (compareAmounts(values.amount, owed) > 0)
          throw fieldError("amount", paymentOverBalanceMessage(owed));
      }
    }
    const [inserted] = await tx.insert(paymentAttempts).values(values).onConflictDoNothing().returning();
    if (!inserted) return null;
    const [numbered] = await tx
      .update(paymentAttempts)
      .set({ orderId: orderIdOf(installationId, inserted.id) })
      .where(and(eq(paymentAttempts.clientId, inserted.clientId), eq(paymentAttempts.id, inserted.id)))
      .returning();
    await auditAttempt(tx, "create", null, numbered);
    if (part !== null && statementId !== null)
      await claimLinkPayment(tx, part, { attemptId: inserted.id, statementId });
    return numbered ?? null;
  });
}

const KEPT_LOOKUPS = 10;

/** The evidence with one entry more: the call and every record found are kept, of the rest the last 10. */
export function withEvidence(list: readonly GatewayEvidence[], entry: GatewayEvidence): GatewayEvidence[] {
  const next = [...list, entry];
  const routine = next.filter((e) => e.step === "lookup" && !e.found);
  const dropped = new Set(routine.slice(0, Math.max(0, routine.length - KEPT_LOOKUPS)));
  return next.filter((e) => !dropped.has(e));
}

const stillOpen = (attempt: AttemptRow) =>
  and(
    eq(paymentAttempts.clientId, attempt.clientId),
    eq(paymentAttempts.id, attempt.id),
    inArray(paymentAttempts.status, ["pending", "unknown"]),
  );

/** Adds to an open attempt's evidence (with the lookup count and next check, when given). */
export async function addEvidence(
  db: Database,
  attempt: AttemptRow,
  entry: GatewayEvidence,
  extra: { gatewayChecks?: number; nextCheckAt?: Date } = {},
): Promise<void> {
  await db
    .update(paymentAttempts)
    .set({ gatewayEvidence: withEvidence(attempt.gatewayEvidence, entry), ...extra, updatedAt: new Date() })
    .where(stillOpen(attempt));
}

/** A pending attempt whose call ended without a usable answer: unknown, with why. Null if settled meanwhile. */
export async function markUnknown(
  db: Database,
  attempt: AttemptRow,
  entry: GatewayEvidence,
): Promise<AttemptRow | null> {
  const [row] = await db
    .update(paymentAttempts)
    .set({
      status: "unknown",
      message: UNKNOWN_ANSWER_MESSAGE,
      gatewayEvidence: withEvidence(attempt.gatewayEvidence, entry),
      updatedAt: new Date(),
    })
    .where(and(stillOpen(attempt), eq(paymentAttempts.status, "pending")))
    .returning();
  return row ?? null;
}

/** The call's own evidence: why its answer could not be used. */
export function callEvidenceOf(answer: NoAnswer, at: Date): GatewayEvidence {
  const outcome = answer.reason === "bad-stamp" || answer.reason === "unusable" ? answer.reason : "no-answer";
  return {
    at: at.toISOString(),
    step: "call",
    outcome,
    detail: `${answer.reason}: ${answer.detail}`.slice(0, 300),
  };
}
