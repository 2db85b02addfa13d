import { z } from "zod";
import {
  GATEWAY_RECONCILE_DAILY_JOB,
  GATEWAY_RECONCILE_JOB,
  runGatewayReconcile,
  startDailyReconciliations,
} from "../modules/gateway-reconcile/gateway-reconcile-run.js";
import { defineJob } from "./job-definition.js";

const id = z.number().int().positive();

/** One client's day reconciled with BluePay's reports (an admin's run or the daily schedule's). */
export const gatewayReconcileJob = defineJob({
  id: GATEWAY_RECONCILE_JOB,
  payload: z.object({ clientId: id, runId: id, day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
  // Two report calls and the day's events: minutes at most. No answer from BluePay is retried a
  // few times, a minute apart; the last failure fails the run (the failed-jobs queue).
  queue: { retryLimit: 3, retryDelaySeconds: 60, expireInSeconds: 900 },
  handle: (payload, { db, services }) => runGatewayReconcile(db, services.gateway, payload),
});

/** Scheduled by startJobs: starts yesterday's reconciliation for every client with a gateway key. */
export const gatewayReconcileDailyJob = defineJob({
  id: GATEWAY_RECONCILE_DAILY_JOB,
  payload: z.object({}),
  // A client already reconciled (or running) for the day is skipped, so a retry starts the rest.
  queue: { retryLimit: 2, retryDelaySeconds: 60, expireInSeconds: 600 },
  handle: async (_payload, { db, enqueueJobs }) => {
    await startDailyReconciliations(db, (tx, payloads) =>
      enqueueJobs(
        tx,
        payloads.map((payload) => ({ name: GATEWAY_RECONCILE_JOB, payload })),
      ),
    );
  },
});
