import { addDays } from "@cyclebill/domain";
import { businessToday } from "../../clock.js";
import type { Database, Executor } from "../../db/database.js";
import {
  createJobRunFor,
  failJobRun,
  finishJobRun,
  planJobRun,
  readJobRun,
  setJobRunProgress,
} from "../jobs/job-runs.js";
import type { PaymentGateway } from "../payments/payment-gateway.js";
import { clientsWithGatewayKey, dayTaken, markDayFailed, reconcileDay } from "./reconcile-day.js";

/** The jobs' stable ids: the kind of their runs and their pg-boss queue names. */
export const GATEWAY_RECONCILE_JOB = "gateway-reconcile";
export const GATEWAY_RECONCILE_DAILY_JOB = "gateway-reconcile-daily";
/** 07:15 UTC daily: after midnight everywhere in the US, when BluePay's batches of the day are closed. */
export const GATEWAY_RECONCILE_CRON = "15 7 * * *";

export type GatewayReconcilePayload = { clientId: number; runId: number; day: string };

/**
 * One client's day as a job run: planned, progress as events are applied, then the result. A
 * retried job (killed worker) does it all again, which changes nothing twice: events have unique
 * keys and the day's row is replaced. A refusal (bad key) fails the run at once; no answer from the
 * gateway throws, so pg-boss retries, and the last failure fails the run.
 */
export async function runGatewayReconcile(
  db: Database,
  gateway: PaymentGateway,
  payload: GatewayReconcilePayload,
): Promise<void> {
  const key = { clientId: payload.clientId, runId: payload.runId };
  const run = await readJobRun(db, key);
  if (!run || run.status === "succeeded" || run.status === "failed") return;
  await planJobRun(db, key, { total: 1, chunkCount: 1, step: "reading BluePay's reports" });
  const outcome = await reconcileDay(db, gateway, {
    clientId: payload.clientId,
    day: payload.day,
    jobRunId: payload.runId,
    createdByUserId: run.createdByUserId,
    onProgress: (progress) => setJobRunProgress(db, key, progress),
  }).catch(async (error: unknown) => {
    // The day must not stay "running" (the schedule would skip it); pg-boss retries the job.
    await markDayFailed(
      db,
      payload.clientId,
      payload.day,
      error instanceof Error ? error.message : String(error),
    );
    throw error;
  });
  if (outcome.kind === "failed") {
    if (outcome.retry) throw new Error(outcome.error);
    await failJobRun(db, key, outcome.error);
    return;
  }
  await finishJobRun(db, key, {
    reconciliation_id: outcome.reconciliationId,
    day: payload.day,
    events_applied: outcome.eventsApplied,
    difference_count: outcome.differences.length,
  });
}

/** The day before a YYYY-MM-DD day. */
export function dayBefore(day: string): string {
  return addDays(day, -1);
}

export type EnqueueReconcileJobs = (tx: Executor, payloads: GatewayReconcilePayload[]) => Promise<void>;

/**
 * The daily schedule: yesterday (the provider's business date) for every client with a gateway key
 * whose day is not reconciled or running yet; one run each, committed with its job.
 */
export async function startDailyReconciliations(
  db: Database,
  enqueue: EnqueueReconcileJobs,
  day = dayBefore(businessToday()),
): Promise<number> {
  let started = 0;
  for (const client of await clientsWithGatewayKey(db)) {
    if (await dayTaken(db, client.id, day)) continue;
    await db.transaction(async (tx) => {
      const run = await createJobRunFor(tx, client.id, GATEWAY_RECONCILE_JOB, null);
      await enqueue(tx, [{ clientId: client.id, runId: run.id, day }]);
    });
    started += 1;
  }
  return started;
}
