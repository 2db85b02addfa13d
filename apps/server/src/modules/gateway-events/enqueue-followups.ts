import type { JobQueue } from "../../jobs/index.js";
import { GATEWAY_FOLLOWUPS_JOB } from "./gateway-notices.js";

/** Queues the follow-ups of a new event (its email, a re-presentment); the job's sweep does it otherwise. */
export async function enqueueGatewayFollowups(
  jobs: JobQueue,
  log: { warn: (object: object, message: string) => void },
  clientId?: number,
): Promise<void> {
  try {
    await jobs.enqueue(GATEWAY_FOLLOWUPS_JOB, clientId === undefined ? {} : { clientId });
  } catch (error) {
    log.warn({ err: error }, "gateway follow-ups left for the sweep");
  }
}
