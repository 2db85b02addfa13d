import { z } from "zod";
import { settleDueAttempts } from "../modules/payments/settle-attempts.js";
import { defineJob } from "./job-definition.js";

export const SETTLE_PAYMENTS_CRON = "* * * * *";

/**
 * Every minute, scheduled by startJobs: asks the gateway about attempts whose answer was lost and
 * whose next check is due (backoff in settle-attempts). Never charges again.
 */
export const settlePaymentsJob = defineJob({
  id: "settle-payments",
  payload: z.object({}),
  // A missed round is made up by the next one.
  queue: { retryLimit: 0, retryDelaySeconds: 1, expireInSeconds: 600 },
  handle: async (_payload, { db, services }) => {
    await settleDueAttempts(db, services.gateway);
  },
});
