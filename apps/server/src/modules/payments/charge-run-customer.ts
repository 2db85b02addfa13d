import { and, eq, sql } from "drizzle-orm";
import {
  compareAmounts,
  amountDueNow,
  NO_STORED_METHOD_MESSAGE,
  PAYMENT_ATTEMPT_STATUSES,
  toAmount,
  type PaymentAttemptStatus,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbBool, dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";
import { paymentAttempts, paymentMethodKinds } from "../../db/tables.js";
import { HttpError } from "../../http/errors.js";
import { CARD_RUN_CONCURRENCY, inCardRunLane } from "./card-run-lanes.js";
import type { gatewayAccess, PaymentGateway } from "./payment-gateway.js";
import { sendPreparedAttempt } from "./send-attempt.js";
import { NOT_SENT_MESSAGE } from "./settle-attempts.js";
import { sharesCardAndAmountSql } from "./shared-card.js";
import { amountDueNowSql } from "../statements/amount-due.sql.js";
import type { CardRunChunk, CardRunItem } from "./start-card-run.js";
import { auditAttempt } from "./attempt-audit.js";

// One customer of a card run: one read (its earlier attempt, balance, stored method, shared card),
// then its attempt saved and committed before the gateway is called and settled after
// (sendPreparedAttempt). A customer with nothing to charge gets a "skipped" attempt instead.

export const NOTHING_DUE_MESSAGE = "Nothing to charge: no balance due";
export const ARCHIVED_MESSAGE = "Not charged: the customer is archived";

/** Attempts a customer gets in one run when the gateway never got the earlier ones. */
const MAX_ROUNDS = 3;

/**
 * The idempotency key of a customer's charge in a card run: card-run:{run}:{customer}, one charge
 * per run and customer. Only when the gateway never got that attempt (it is known not charged) is
 * the customer tried again, under the next round's key (…:2, …:3).
 */
export function cardRunAttemptKey(runId: number, customerId: number, round = 1): string {
  return round === 1 ? `card-run:${runId}:${customerId}` : `card-run:${runId}:${customerId}:${round}`;
}

export type Outcome = { status: PaymentAttemptStatus; amount: string };
/** The gateway and the client's access to it, read once per chunk. */
export type RunGateway = { gateway: PaymentGateway; access: Awaited<ReturnType<typeof gatewayAccess>> };
type Attempt = Outcome & { id: number; message: string; gatewayTransId: string };

/**
 * An attempt whose request provably never left (the connection was refused before sending): the
 * only one followed by another round. A lost or unusable answer is unknown, never "not charged".
 */
function knownNotCharged(attempt: Pick<Attempt, "status" | "message" | "gatewayTransId">): boolean {
  return attempt.status === "error" && attempt.gatewayTransId === "" && attempt.message === NOT_SENT_MESSAGE;
}

async function attemptOf(db: Database, clientId: number, key: string): Promise<Attempt | null> {
  const [row] = await db
    .select({
      id: paymentAttempts.id,
      status: paymentAttempts.status,
      amount: paymentAttempts.amount,
      message: paymentAttempts.message,
      gatewayTransId: paymentAttempts.gatewayTransId,
    })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.clientId, clientId), eq(paymentAttempts.idempotencyKey, key)));
  return row ?? null;
}

type CustomerToCharge = {
  balance: string;
  first_name: string;
  last_name: string;
  customer_name: string;
  deleted: boolean;
  method: "card" | "ach" | null;
};

/** The customer, its stored method and the earlier attempt under the key, read at once (each may be missing). */
const chargeReadRowSchema = z.object({
  customer_id: dbInt.nullable(),
  balance: dbDecimal.nullable(),
  first_name: dbText.nullable(),
  last_name: dbText.nullable(),
  customer_name: dbText.nullable(),
  company_name: dbText.nullable(),
  deleted: dbBool.nullable(),
  method: z.enum(paymentMethodKinds).nullable(),
  token: dbText.nullable(),
  mask: dbText.nullable(),
  card_type: dbText.nullable(),
  stored_id: dbText.nullable(),
  ach_signed_agreement: dbBool.nullable(),
  ach_entry_class: dbText.nullable(),
  shares: dbBool.nullable(),
  attempt_id: dbInt.nullable(),
  attempt_status: z.enum(PAYMENT_ATTEMPT_STATUSES).nullable(),
  attempt_amount: dbDecimal.nullable(),
  attempt_message: dbText.nullable(),
  attempt_trans_id: dbText.nullable(),
});

/**
 * What a card run charges a customer: autopay, its statement's amount due as it stands now (the
 * one rule, amountDueNow: never more than is owed now); a bulk run, the balance.
 */
function chargeAmount(item: CardRunItem, balance: string): string {
  return item.amountDue
    ? amountDueNow({ newBalance: item.amountDue, currentBalance: balance, superseded: false })
    : toAmount(balance);
}

/**
 * One read per customer charged: the earlier attempt under this key (a replayed chunk), the
 * customer's balance and names, its stored method, and whether another customer shares that card
 * and the amount about to be charged (autopay: the statement's amount due, never more than owed).
 */
async function readCharge(db: Database, chunk: CardRunChunk, item: CardRunItem, key: string) {
  // The amount charged, as chargeAmount below reckons it (the one amount-due rule for autopay).
  const amount = item.amountDue
    ? amountDueNowSql({
        newBalance: sql`${item.amountDue}::numeric`,
        currentBalance: sql`c.total_balance`,
        superseded: sql`false`,
      })
    : sql`c.total_balance`;
  const [row] = await queryRows(
    db,
    sql`select c.id as customer_id, c.total_balance::text as balance, c.first_name, c.last_name,
               c.customer_name, c.company_name, c.deleted,
               m.kind as method, m.token, m.mask, m.card_type, m.stored_id,
               m.ach_signed_agreement, m.ach_entry_class,
               ${sharesCardAndAmountSql(chunk.clientId, item.customerId, chunk.runId, amount)} as shares,
               a.id as attempt_id, a.status as attempt_status, a.amount::text as attempt_amount,
               a.message as attempt_message, a.gateway_trans_id as attempt_trans_id
        from (select 1) as one
        left join customers c on c.client_id = ${chunk.clientId} and c.id = ${item.customerId}
        left join customer_payment_methods m on m.client_id = c.client_id and m.customer_id = c.id
        left join payment_attempts a on a.client_id = ${chunk.clientId} and a.idempotency_key = ${key}`,
    chargeReadRowSchema,
  );
  if (!row) throw new Error("the charge read returned no row");
  return row;
}

/**
 * Records that a customer was not charged (nothing due, or no stored method): a "skipped" attempt
 * under the same key, so the run's results list every customer and a replay finds it.
 */
async function recordSkipped(
  db: Database,
  chunk: CardRunChunk,
  item: CardRunItem,
  customer: CustomerToCharge,
  message: string,
  key: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const skipped = await tx
      .insert(paymentAttempts)
      .values({
        clientId: chunk.clientId,
        customerId: item.customerId,
        idempotencyKey: key,
        kind: "sale",
        source: chunk.source,
        method: customer.method ?? "card",
        usedStoredMethod: customer.method !== null,
        amount: "0.00",
        status: "skipped",
        message,
        name1: (customer.first_name || customer.customer_name).slice(0, 80),
        name2: customer.last_name.slice(0, 80),
        cardRunId: chunk.runId,
        settledAt: new Date(),
      })
      .onConflictDoNothing()
      .returning();
    for (const row of skipped) await auditAttempt(tx, "create", null, row);
  });
}

/**
 * Charges one customer of the run once: its earlier attempt if it has one (a replayed chunk), else a
 * new one; an attempt known not charged is followed by the next round's.
 */
async function chargeCustomer(
  db: Database,
  run: RunGateway,
  chunk: CardRunChunk,
  item: CardRunItem,
): Promise<Outcome> {
  for (let round = 1; ; round++) {
    const outcome = await chargeRound(
      db,
      run,
      chunk,
      item,
      cardRunAttemptKey(chunk.runId, item.customerId, round),
    );
    if (!knownNotCharged(outcome) || round >= MAX_ROUNDS) return outcome;
  }
}

async function chargeRound(
  db: Database,
  run: RunGateway,
  chunk: CardRunChunk,
  item: CardRunItem,
  key: string,
): Promise<Attempt | (Outcome & { message: string; gatewayTransId: string })> {
  const read = await readCharge(db, chunk, item, key);
  if (read.attempt_id != null)
    return {
      id: read.attempt_id,
      status: read.attempt_status ?? "pending",
      amount: read.attempt_amount ?? "0.00",
      message: read.attempt_message ?? "",
      gatewayTransId: read.attempt_trans_id ?? "",
    };
  // A customer removed since the run started has nothing left to charge.
  if (read.customer_id == null) return { status: "skipped", amount: "0.00", message: "", gatewayTransId: "" };
  const customer: CustomerToCharge = {
    balance: read.balance ?? "0.00",
    first_name: read.first_name ?? "",
    last_name: read.last_name ?? "",
    customer_name: read.customer_name ?? "",
    deleted: read.deleted ?? false,
    method: read.method ?? null,
  };
  const amount = chargeAmount(item, customer.balance);
  const skip = customer.deleted
    ? ARCHIVED_MESSAGE
    : customer.method === null
      ? NO_STORED_METHOD_MESSAGE
      : compareAmounts(amount, "0.00") <= 0
        ? NOTHING_DUE_MESSAGE
        : null;
  if (skip !== null) {
    await recordSkipped(db, chunk, item, customer, skip, key);
    return (
      (await attemptOf(db, chunk.clientId, key)) ?? {
        status: "skipped",
        amount: "0.00",
        message: skip,
        gatewayTransId: "",
      }
    );
  }
  const { attempt } = await sendPreparedAttempt(
    db,
    {
      clientId: chunk.clientId,
      customerId: item.customerId,
      source: chunk.source,
      kind: "sale",
      amount,
      idempotencyKey: key,
      cardRunId: chunk.runId,
      account: { kind: "stored" },
      // Only a first round: a later round is a retry of this customer's charge, never overridden.
      duplicateOverride:
        key === cardRunAttemptKey(chunk.runId, item.customerId) &&
        customer.method === "card" &&
        read.shares === true,
      // Only the wait on the gateway counts against the run's calls in flight: reading the
      // customer, committing the attempt and settling the answer overlap other customers' calls.
      gatewayLane: (call) => inCardRunLane(chunk.runId, CARD_RUN_CONCURRENCY, call),
    },
    {
      customer: {
        firstName: customer.first_name,
        lastName: customer.last_name,
        companyName: read.company_name ?? "",
      },
      stored: {
        token: read.token ?? "",
        kind: customer.method ?? "card",
        mask: read.mask ?? "",
        cardType: read.card_type ?? "",
        storedId: read.stored_id ?? "",
        achSignedAgreement: read.ach_signed_agreement === true,
        achEntryClass: read.ach_entry_class ?? "",
      },
      access: run.access,
    },
    run.gateway,
  );
  return {
    status: attempt.status,
    amount: toAmount(attempt.amount),
    message: attempt.message,
    gatewayTransId: attempt.gatewayTransId,
  };
}

/** What a refusal says (DRF's detail or first error), for the customer's result line. */
function refusalMessage(error: HttpError): string {
  const first = Object.values(error.body)[0];
  if (typeof first === "string") return first;
  if (Array.isArray(first) && typeof first[0] === "string") return first[0];
  return error.message;
}

/** A customer refused before anything was sent (e.g. its method removed meanwhile) is skipped, with why. */
export async function chargeOrSkip(
  db: Database,
  run: RunGateway,
  chunk: CardRunChunk,
  item: CardRunItem,
): Promise<Outcome> {
  try {
    return await chargeCustomer(db, run, chunk, item);
  } catch (error) {
    if (!(error instanceof HttpError) || error.status >= 500) throw error;
    // Refused before anything was saved under this run's first key (see chargeRound).
    const key = cardRunAttemptKey(chunk.runId, item.customerId);
    const none = {
      balance: "0.00",
      first_name: "",
      last_name: "",
      customer_name: "",
      deleted: false,
      method: null,
    };
    await recordSkipped(db, chunk, item, none, refusalMessage(error), key);
    return (await attemptOf(db, chunk.clientId, key)) ?? { status: "skipped", amount: "0.00" };
  }
}
