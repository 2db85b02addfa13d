import { z } from "zod";
import {
  EXPIRING_CARDS_JOB,
  queueExpiringCardNotices,
  sendExpiringCardNotices,
} from "../modules/payments/expiring-cards.js";
import { defineJob } from "./job-definition.js";

/** Daily, early (UTC): queue the notices of cards expiring before their next charge, and send them. */
export const EXPIRING_CARDS_CRON = "15 6 * * *";

/** Emails each customer once about a card on file that will not last to its next charge. */
export const expiringCardsJob = defineJob({
  id: EXPIRING_CARDS_JOB,
  payload: z.object({}),
  // A mail server that refuses for a while: the notices stay failed and the next try sends them.
  queue: { retryLimit: 3, retryDelaySeconds: 60, retryBackoff: true, expireInSeconds: 900 },
  handle: async (_payload, { db, services }) => {
    await queueExpiringCardNotices(db);
    const { failed } = await sendExpiringCardNotices(db, services.mailer);
    if (failed > 0) throw new Error(`${failed} expiring-card notices failed; they will be retried`);
  },
});
