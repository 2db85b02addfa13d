import { and, eq, sql } from "drizzle-orm";
import { addAmounts } from "@cyclebill/domain";
import { z } from "zod";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import { jobRunChunks } from "../../db/tables.js";
import { readJobRun } from "../jobs/job-runs.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import { runChunk, type ChunkResult } from "../jobs/record-chunk.js";
import { gatewayAccess, type PaymentGateway } from "./payment-gateway.js";
import { chargeOrSkip } from "./charge-run-customer.js";
import { settlePendingAttempts } from "./settle-attempts.js";
import { CARD_RUN_STEP, type CardRunChunk } from "./start-card-run.js";

// One chunk of a card run. Each customer's charge is its own attempt, saved and committed before
// the gateway is called (sendPreparedAttempt), under the key card-run:{run}:{customer}: a chunk run
// again after kill -9 finds each customer's attempt instead of charging again, and settles any
// attempt left pending by asking the gateway for its ORDER_ID. The chunk is recorded (marker, run
// progress) only once every one of its customers has a final outcome.

export { CARD_RUN_CONCURRENCY } from "./card-run-lanes.js";
export { cardRunAttemptKey, NOTHING_DUE_MESSAGE } from "./charge-run-customer.js";
/** Rounds of asking the gateway about attempts still pending before the chunk is retried later. */
const SETTLE_ROUNDS = 3;
const SETTLE_PAUSE_MS = 500;

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
  const access = await gatewayAccess(db, gateway, chunk.clientId);
  const chargeAll = () =>
    mapLimited(chunk.items, chunk.items.length, (item) => chargeOrSkip(db, { gateway, access }, chunk, item));
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
  // Unknown: the answer was lost or unusable; the settle job looks it up (never charged again).
  const unknown = outcomes.filter((outcome) => outcome.status === "unknown").length;
  const declined = outcomes.length - approved.length - skipped - unknown;
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
          unknown_count: unknown,
        },
      }),
    { step: CARD_RUN_STEP, summarize: summarizeCardRun },
  );
}

/** A pending attempt of the chunk. */
const pendingAttemptRowSchema = z.object({ id: dbInt });

/** Asks the gateway about the chunk's pending attempts (by their ORDER_ID). */
async function settleChunk(db: Database, gateway: PaymentGateway, chunk: CardRunChunk): Promise<void> {
  const pending = await queryRows(
    db,
    sql`select id from payment_attempts
        where client_id = ${chunk.clientId} and card_run_id = ${chunk.runId} and status = 'pending'
          and customer_id = any(${sqlArray(
            chunk.items.map((item) => item.customerId),
            "bigint",
          )})`,
    pendingAttemptRowSchema,
  );
  if (pending.length > 0)
    await settlePendingAttempts(
      db,
      chunk.clientId,
      pending.map((row) => row.id),
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
    unknown_count: count("unknown_count"),
  };
}
