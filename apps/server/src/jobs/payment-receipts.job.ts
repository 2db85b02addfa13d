import { z } from "zod";
import { PAYMENT_RECEIPTS_JOB, sendPaymentReceipts } from "../modules/payments/payment-receipts.js";
import { defineJob } from "./job-definition.js";

/** Every minute, a sweep of all clients: receipts whose job was never queued (a crash) still go. */
export const PAYMENT_RECEIPTS_CRON = "* * * * *";

/** Emails the queued payment receipts of one client (or, from the sweep, of every client). */
export const paymentReceiptsJob = defineJob({
  id: PAYMENT_RECEIPTS_JOB,
  payload: z.object({ clientId: z.number().int().positive().optional() }),
  // A mail server that refuses for a while: 5 s, 10 s, 20 s, ...
  queue: { retryLimit: 5, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds: 300 },
  handle: async (payload, { db, services }) => {
    await sendPaymentReceipts(db, services.mailer, payload.clientId ?? null);
  },
});
