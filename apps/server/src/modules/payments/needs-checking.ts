import { and, asc, count, eq } from "drizzle-orm";
import {
  LOOKUP_WINDOW_MS,
  needsCheckingAtGateway,
  resolvePaging,
  toAmount,
  type NeedsCheckingAttempt,
  type NeedsCheckingQuery,
  type Page,
  type ResolveAttemptPayload,
  type ResolvedAttempt,
} from "@cyclebill/domain";
import { currentClock } from "../../clock.js";
import type { Database } from "../../db/database.js";
import { customers, paymentAttempts } from "../../db/tables.js";
import { roleOf, type TenantContext } from "../../http/auth-context.js";
import { forbidden, HttpError, notFound } from "../../http/errors.js";
import type { AttemptRow } from "./attempt-row.js";
import { readAttempt, recordAnswer } from "./record-answer.js";

// The "needs checking" list: attempts whose answer was lost or unusable (unknown), with what was
// sent and every lookup, and a person's verdict on one. "Charged" records it as an approved answer
// (an approved sale posts its payment through the ledger writer); "not charged" closes it. Both keep
// who, when and why. Owners and admins only: staff see the list but cannot decide.

export const CHARGED_BY_PERSON_MESSAGE = "Approved (confirmed at the gateway by a person).";
export const NOT_CHARGED_BY_PERSON_MESSAGE = "Not charged (confirmed at the gateway by a person).";
export const NOT_UNKNOWN_MESSAGE = "This payment attempt is not waiting to be checked.";

function toApi(row: AttemptRow, customer: { no: number; name: string }, now: Date): NeedsCheckingAttempt {
  return {
    id: row.id,
    client_id: row.clientId,
    customer_id: row.customerId,
    customer_no: customer.no,
    customer_name: customer.name,
    kind: row.kind,
    source: row.source,
    method: row.method,
    created: row.createdAt.toISOString(),
    sent: {
      order_id: row.orderId || String(row.id),
      amount: toAmount(row.amount),
      trans_type: row.kind.toUpperCase(),
      mask: row.mask,
    },
    lookups: row.gatewayChecks,
    needs_checking: needsCheckingAtGateway(row.status, row.createdAt, now),
    lookups_until: new Date(row.createdAt.getTime() + LOOKUP_WINDOW_MS).toISOString(),
    evidence: row.gatewayEvidence,
  };
}

/** GET /api/payment-attempts/needs-checking/: the client's unknown attempts, oldest first. */
export async function listNeedsChecking(
  db: Database,
  tenant: TenantContext,
  query: NeedsCheckingQuery,
): Promise<Page<NeedsCheckingAttempt>> {
  const { limit, offset } = resolvePaging(query);
  const where = and(eq(paymentAttempts.clientId, tenant.clientId), eq(paymentAttempts.status, "unknown"));
  const [rows, [total]] = await Promise.all([
    db
      .select({ attempt: paymentAttempts, no: customers.customerNo, name: customers.customerName })
      .from(paymentAttempts)
      .innerJoin(
        customers,
        and(eq(customers.clientId, paymentAttempts.clientId), eq(customers.id, paymentAttempts.customerId)),
      )
      .where(where)
      .orderBy(asc(paymentAttempts.createdAt), asc(paymentAttempts.id))
      .limit(limit)
      .offset(offset),
    db.select({ count: count() }).from(paymentAttempts).where(where),
  ]);
  const now = currentClock().now();
  return {
    count: Number(total?.count ?? 0),
    results: rows.map((row) => toApi(row.attempt, { no: row.no, name: row.name }, now)),
  };
}

function resolvedToApi(row: AttemptRow): ResolvedAttempt {
  return {
    id: row.id,
    status: row.status,
    message: row.message,
    transaction_id: row.transactionId,
    resolved_by_user_id: row.resolvedByUserId,
    resolved_at: row.resolvedAt?.toISOString() ?? null,
    resolution_reason: row.resolutionReason,
  };
}

/** POST /api/payment-attempts/{id}/resolve/: a person's verdict on an unknown attempt. */
export async function resolveAttempt(
  db: Database,
  tenant: TenantContext,
  id: number,
  payload: ResolveAttemptPayload,
): Promise<ResolvedAttempt> {
  const [attempt] = await db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.clientId, tenant.clientId), eq(paymentAttempts.id, id)));
  if (!attempt) throw notFound();
  if (roleOf(tenant.user) === "staff") throw forbidden();
  if (attempt.status !== "unknown") throw new HttpError(409, { detail: NOT_UNKNOWN_MESSAGE });
  const resolution = { userId: tenant.user.id, reason: payload.reason, at: currentClock().now() };
  const settled =
    payload.outcome === "charged"
      ? await recordAnswer(
          db,
          tenant.clientId,
          id,
          {
            status: "approved",
            message: CHARGED_BY_PERSON_MESSAGE,
            transId: payload.trans_id ?? "",
            mask: attempt.mask,
            cardType: attempt.cardType,
            authCode: "",
          },
          attempt.customerId,
          resolution,
        )
      : await recordAnswer(
          db,
          tenant.clientId,
          id,
          { status: "error", message: NOT_CHARGED_BY_PERSON_MESSAGE },
          attempt.customerId,
          resolution,
        );
  if (!settled) throw new HttpError(409, { detail: NOT_UNKNOWN_MESSAGE });
  return resolvedToApi(await readAttempt(db, tenant.clientId, id));
}
