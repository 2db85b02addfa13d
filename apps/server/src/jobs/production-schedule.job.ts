import { z } from "zod";
import { PRODUCTION_RUN_JOB } from "../modules/production/run-production.js";
import { checkSchedules } from "../modules/production/scheduled-runs.js";
import { defineJob } from "./job-definition.js";

export const PRODUCTION_SCHEDULE_JOB = "production-schedule";
/** Every minute: a cycle's time is a minute of the day; what is due is decided by the app's clock. */
export const PRODUCTION_SCHEDULE_CRON = "* * * * *";

/** Starts (or holds for approval) the scheduled cycle runs whose time has come. */
export const productionScheduleJob = defineJob({
  id: PRODUCTION_SCHEDULE_JOB,
  payload: z.object({ chunkSize: z.number().int().min(1).max(5000) }),
  // A missed minute is made up by the next (a run due earlier today is still due); the scheduled
  // run's unique key and Idempotency-Key keep a retried or doubled check to one run.
  queue: { retryLimit: 1, retryDelaySeconds: 5, expireInSeconds: 120 },
  handle: (payload, { db, enqueueJobs }) =>
    checkSchedules(db, {
      chunkSize: payload.chunkSize,
      enqueue: (tx, steps) =>
        enqueueJobs(
          tx,
          steps.map((step) => ({ name: PRODUCTION_RUN_JOB, payload: step.payload, priority: step.priority })),
        ),
    }),
});
