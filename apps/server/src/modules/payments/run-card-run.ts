import { and, eq, sql } from "drizzle-orm";
import {
  addAmounts,
  compareAmounts,
  minAmount,
  NO_STORED_METHOD_MESSAGE,
  toAmount,
  type PaymentAttemptStatus,
} from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { jobRunChunks, paymentAttempts } from "../../db/tables.js";
import { readJobRun } from "../jobs/job-runs.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import { runChunk, type ChunkResult } from "../jobs/record-chunk.js";
import { HttpError } from "../../http/errors.js";
import { gatewayAccess, type PaymentGateway } from "./payment-gateway.js";
import { cardRunConcurrency, inCardRunLane } from "./card-run-lanes.js";
import { sendPaymentAttempt } from "./send-attempt.js";
import { sharesCardAndAmount } from "./shared-card.js";
import { settlePendingAttempts } from "./settle-attempts.js";
import { CARD_RUN_STEP, type CardRunChunk, type CardRunItem } from "./start-card-run.js";

// One chunk of a card run. Each customer's charge is its own attempt, saved and committed before
// the gateway is called (sendPaymentAttempt), under the key card-run:{run}:{customer}: a chunk run
// again after kill -9 finds each customer's attempt instead of charging again, and settles any
// attempt left pending by asking the gateway for its ORDER_ID. The chunk is recorded (marker, run
// progress) only once every one of its customers has a final outcome.

/** Customers of a run charged at once (across its chunks): gateway calls overlap, each customer in its own transactions. */
export const CARD_RUN_CONCURRENCY = cardRunConcurrency();
/** Rounds of asking the gateway about attempts still pending before the chunk is retried later. */
const SETTLE_ROUNDS = 3;
const SETTLE_PAUSE_MS = 500;

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

type Outcome = { status: PaymentAttemptStatus; amount: string };
type Attempt = Outcome & { id: number; message: string; gatewayTransId: string };

/** An attempt that ended without reaching the gateway, or that the gateway says it never got. */
function knownNotCharged(attempt: Pick<Attempt, "status" | "message" | "gatewayTransId">): boolean {
  return (
    attempt.status === "error" &&
    attempt.gatewayTransId === "" &&
    attempt.message.endsWith("nothing was charged.")
  );
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
  await db
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
    .onConflictDoNothing();
}

/**
 * Charges one customer of the run once: its earlier attempt if it has one (a replayed chunk), else a
 * new one; an attempt known not charged is followed by the next round's.
 */
async function chargeCustomer(
  db: Database,
  gateway: PaymentGateway,
  chunk: CardRunChunk,
  item: CardRunItem,
): Promise<Outcome> {
  for (let round = 1; ; round++) {
    const outcome = await chargeRound(
      db,
      gateway,
      chunk,
      item,
      cardRunAttemptKey(chunk.runId, item.customerId, round),
    );
    if (!knownNotCharged(outcome) || round >= MAX_ROUNDS) return outcome;
  }
}

async function chargeRound(
  db: Database,
  gateway: PaymentGateway,
  chunk: CardRunChunk,
  item: CardRunItem,
  key: string,
): Promise<Attempt | (Outcome & { message: string; gatewayTransId: string })> {
  const earlier = await attemptOf(db, chunk.clientId, key);
  if (earlier) return earlier;
  const [customer] = await queryRows<CustomerToCharge>(
    db,
    sql`select c.total_balance::text as balance, c.first_name, c.last_name, c.customer_name, c.deleted,
               m.kind as method
        from customers c
        left join customer_payment_methods m on m.client_id = c.client_id and m.customer_id = c.id
        where c.client_id = ${chunk.clientId} and c.id = ${item.customerId}`,
  );
  // A customer removed since the run started has nothing left to charge.
  if (!customer) return { status: "skipped", amount: "0.00", message: "", gatewayTransId: "" };
  // Autopay charges the statement's amount due, but never more than is owed now.
  const amount = toAmount(item.amountDue ? minAmount(item.amountDue, customer.balance) : customer.balance);
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
  const result = await sendPaymentAttempt(
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
        (await sharesCardAndAmount(db, chunk.clientId, item.customerId, chunk.runId, amount)),
      // Only the wait on the gateway counts against the run's calls in flight: reading the
      // customer, committing the attempt and settling the answer overlap other customers' calls.
      gatewayLane: (call) => inCardRunLane(chunk.runId, CARD_RUN_CONCURRENCY, call),
    },
    gateway,
  );
  return {
    status: result.status,
    amount: result.amount,
    message: result.message,
    gatewayTransId: result.gatewayTransId,
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
async function chargeOrSkip(
  db: Database,
  gateway: PaymentGateway,
  chunk: CardRunChunk,
  item: CardRunItem,
): Promise<Outcome> {
  try {
    return await chargeCustomer(db, gateway, chunk, item);
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

/**
 * Runs work over items, at most `limit` at once, keeping the items' order in the answers. Every
 * lane finishes before a failure is thrown, so no charge is still running when the job gives up.
 */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const answers: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    for (let index = next++; index < items.length; index = next++)
      answers[index] = await work(items[index] as T);
  };
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, lane));
  const failed = lanes.find((lane) => lane.status === "rejected");
  if (failed) throw failed.reason;
  return answers;
}

async function chunkRecorded(db: Database, chunk: CardRunChunk): Promise<boolean> {
  const [row] = await db
    .select({ chunkNo: jobRunChunks.chunkNo })
    .from(jobRunChunks)
    .where(
      and(
        eq(jobRunChunks.clientId, chunk.clientId),
        eq(jobRunChunks.runId, chunk.runId),
        eq(jobRunChunks.chunkNo, chunk.chunkNo),
      ),
    );
  return row !== undefined;
}

/**
 * Charges a chunk's customers, settles what is left pending, and records the chunk. Throws while an
 * attempt stays pending (the gateway did not answer, even to the query), so the job is retried
 * later and settles it then; nothing is ever charged a second time.
 */
export async function runCardRunChunk(
  db: Database,
  gateway: PaymentGateway,
  chunk: CardRunChunk,
): Promise<void> {
  const key = { clientId: chunk.clientId, runId: chunk.runId };
  const run = await readJobRun(db, key);
  if (!run || run.status !== "running" || (await chunkRecorded(db, chunk))) return;
  // No gateway configured or no key: the chunk fails (and is retried) rather than skip everyone.
  await gatewayAccess(db, gateway, chunk.clientId);
  const chargeAll = () =>
    mapLimited(chunk.items, chunk.items.length, (item) => chargeOrSkip(db, gateway, chunk, item));
  let outcomes = await chargeAll();
  for (
    let round = 0;
    round < SETTLE_ROUNDS && outcomes.some((outcome) => outcome.status === "pending");
    round++
  ) {
    if (round > 0) await new Promise((resolve) => setTimeout(resolve, SETTLE_PAUSE_MS));
    await settleChunk(db, gateway, chunk);
    // Settled attempts answer as they are now; one the gateway never got is followed by the next round's.
    outcomes = await chargeAll();
  }
  const pending = outcomes.filter((outcome) => outcome.status === "pending").length;
  if (pending > 0)
    throw new Error(
      `${pending} card payment(s) of chunk ${chunk.chunkNo} still wait for the gateway's answer`,
    );
  const approved = outcomes.filter((outcome) => outcome.status === "approved");
  const skipped = outcomes.filter((outcome) => outcome.status === "skipped").length;
  const declined = outcomes.length - approved.length - skipped;
  await runChunk(
    db,
    { ...key, chunkNo: chunk.chunkNo },
    () =>
      Promise.resolve({
        done: chunk.items.length,
        failed: declined,
        result: {
          approved_count: approved.length,
          approved_total: approved.reduce((sum, outcome) => addAmounts(sum, outcome.amount), "0.00"),
          declined_count: declined,
          skipped_count: skipped,
        },
      }),
    { step: CARD_RUN_STEP, summarize: summarizeCardRun },
  );
}

/** Asks the gateway about the chunk's pending attempts (by their ORDER_ID). */
async function settleChunk(db: Database, gateway: PaymentGateway, chunk: CardRunChunk): Promise<void> {
  const pending = await queryRows<{ id: string | number }>(
    db,
    sql`select id from payment_attempts
        where client_id = ${chunk.clientId} and card_run_id = ${chunk.runId} and status = 'pending'
          and customer_id = any(${sqlArray(
            chunk.items.map((item) => item.customerId),
            "bigint",
          )})`,
  );
  if (pending.length > 0)
    await settlePendingAttempts(
      db,
      chunk.clientId,
      pending.map((row) => Number(row.id)),
      gateway,
    );
}

/** The run's result once its last chunk is recorded: counts and the total approved. */
export function summarizeCardRun(chunks: readonly ChunkResult[]): Record<string, unknown> {
  const count = (name: string) => chunks.reduce((sum, chunk) => sum + Number(chunk.result[name] ?? 0), 0);
  return {
    approved_count: count("approved_count"),
    approved_total: chunks.reduce(
      (sum, chunk) => addAmounts(sum, String(chunk.result.approved_total ?? "0.00")),
      "0.00",
    ),
    declined_count: count("declined_count"),
    skipped_count: count("skipped_count"),
  };
}
