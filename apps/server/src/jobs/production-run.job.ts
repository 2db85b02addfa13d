import { z } from "zod";
import { PRODUCTION_RUN_JOB, runProductionStep } from "../modules/production/run-production.js";
import { CARD_RUN_JOB } from "../modules/payments/start-card-run.js";
import { defineJob } from "./job-definition.js";

const id = z.number().int().positive();

/** One client's part of a production run: a plan step, then one step per chunk of customers. */
export const productionRunPayload = z.discriminatedUnion("step", [
  z.object({
    step: z.literal("plan"),
    clientId: id,
    runId: id,
    productionRunId: id,
    chunkSize: z.number().int().min(1).max(5000),
    /** The failed job run this part resumes: its recorded chunks are carried, the rest planned. */
    resumeFrom: id.optional(),
  }),
  z.object({
    step: z.literal("chunk"),
    clientId: id,
    runId: id,
    productionRunId: id,
    chunkNo: z.number().int().min(0),
    customerIds: z.array(id).min(1).max(5000),
  }),
]);

export const productionRunJob = defineJob({
  id: PRODUCTION_RUN_JOB,
  payload: productionRunPayload,
  // A chunk of 500 customers posts and makes its statements in a second or two; two minutes
  // without an answer means the worker died: the step is retried, and skipped if recorded.
  // Two chunks at once in each worker loop: a chunk alternates between this process and
  // PostgreSQL, so two side by side keep two cores busy (more cores: more workers, or WORKERS=n).
  // Chunks touch different customers, and statement numbers stay unique and gapless
  // (production-parallel-chunks.test.ts).
  queue: { retryLimit: 3, retryDelaySeconds: 1, expireInSeconds: 120, concurrency: 2 },
  handle: (payload, { db, enqueue, enqueueJobs }) =>
    runProductionStep(db, payload, {
      steps: (tx, steps) => enqueue(tx, steps),
      delivery: (tx, jobs) => enqueueJobs(tx, jobs),
      cardRuns: (tx, chunks) =>
        enqueueJobs(
          tx,
          chunks.map((chunk) => ({
            name: CARD_RUN_JOB,
            payload: chunk.payload,
            priority: chunk.priority,
            startAfter: chunk.startAfter,
          })),
        ),
    }),
});
