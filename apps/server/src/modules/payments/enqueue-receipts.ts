import type { JobQueue } from "../../jobs/index.js";
import { PAYMENT_RECEIPTS_JOB } from "./payment-receipts.js";

/**
 * Queues the job that emails a client's queued receipts. The receipts themselves are already
 * committed with the gateway's answer; should this fail (no job engine, a crash), the job's
 * every-minute sweep sends them, so the payment's answer never waits on it.
 */
export async function enqueueReceipts(
  jobs: JobQueue,
  log: { warn: (object: object, message: string) => void },
  clientId: number,
): Promise<void> {
  try {
    await jobs.enqueue(PAYMENT_RECEIPTS_JOB, { clientId });
  } catch (error) {
    log.warn({ err: error, clientId }, "payment receipts left for the sweep");
  }
}
