import { z } from "zod";
import { PAYMENT_RECEIPTS_JOB } from "../modules/payments/payment-receipts.js";
import { CARD_RUN_CONCURRENCY, runCardRunChunk } from "../modules/payments/run-card-run.js";
import { CARD_RUN_CHUNK_SIZE, CARD_RUN_JOB } from "../modules/payments/start-card-run.js";
import { defineJob } from "./job-definition.js";

const id = z.number().int().positive();

/** One chunk of a card run (Process CC or autopay): customers to charge with their stored methods. */
export const cardRunPayload = z.object({
  clientId: id,
  runId: id,
  source: z.enum(["bulk", "autopay"]),
  chunkNo: z.number().int().min(0),
  items: z
    .array(
      z.object({
        customerId: id,
        /** Autopay: the statement's amount due (charged at most, never more than the balance). */
        amountDue: z
          .string()
          .regex(/^\d{1,12}\.\d{2}$/)
          .optional(),
      }),
    )
    .min(1)
    .max(500),
});

export const cardRunJob = defineJob({
  id: CARD_RUN_JOB,
  payload: cardRunPayload,
  // 25 customers take a few seconds; a gateway that holds every call runs into its time-out
  // (30 s each), so a chunk gets 5 minutes before it counts as dead. Retries settle the attempts
  // whose answers were lost (they never charge again); growing delays (2 s, 4 s, ... about 8
  // minutes in all) outlast the time after which the gateway's "not found" is final. Enough chunks
  // run at once to keep CARD_RUN_CONCURRENCY charges in flight, plus one so a chunk's last waits
  // overlap the next chunk's first.
  queue: {
    retryLimit: 8,
    retryDelaySeconds: 2,
    retryBackoff: true,
    expireInSeconds: 300,
    concurrency: Math.ceil(CARD_RUN_CONCURRENCY / CARD_RUN_CHUNK_SIZE) + 1,
  },
  handle: async (payload, { db, services, enqueueJobs }) => {
    await runCardRunChunk(db, services.gateway, payload);
    // The chunk's receipts were queued with each answer; this job emails them.
    await enqueueJobs(db, [{ name: PAYMENT_RECEIPTS_JOB, payload: { clientId: payload.clientId } }]);
  },
});
