import { z } from "zod";
import { LEDGER_CHECK_JOB, runLedgerCheckStep } from "../modules/ledger-check/ledger-check.js";
import { defineJob } from "./job-definition.js";

const id = z.number().int().positive();

/** Proves one client's books: a plan step, then one step per chunk of (at most 5,000) customers. */
export const ledgerCheckPayload = z.discriminatedUnion("step", [
  z.object({
    step: z.literal("plan"),
    clientId: id,
    runId: id,
    chunkSize: z.number().int().min(1).max(5000),
  }),
  z.object({
    step: z.literal("chunk"),
    clientId: id,
    runId: id,
    chunkNo: z.number().int().min(0),
    customerIds: z.array(id).min(1).max(5000),
  }),
]);

export const ledgerCheckJob = defineJob({
  id: LEDGER_CHECK_JOB,
  payload: ledgerCheckPayload,
  // A chunk of 500 customers takes well under a second; two minutes without an answer means
  // the worker died, and the step is retried (and skipped if its chunk was recorded).
  queue: { retryLimit: 3, retryDelaySeconds: 1, expireInSeconds: 120 },
  handle: (payload, { db, enqueue }) => runLedgerCheckStep(db, payload, (tx, steps) => enqueue(tx, steps)),
});
