import { z } from "zod";
import { GATEWAY_FOLLOWUPS_JOB, sendGatewayNotices } from "../modules/gateway-events/gateway-notices.js";
import { sendDueRepresentments } from "../modules/gateway-events/represent-return.js";
import { defineJob } from "./job-definition.js";

/** Every minute, a sweep of all clients: what a gateway event left to do outside its transaction. */
export const GATEWAY_FOLLOWUPS_CRON = "* * * * *";

/**
 * Sends the re-presentments of returned ACH debits recorded but not sent, and the customers'
 * emails about returns and chargebacks (of one client, or, from the sweep, of every client).
 */
export const gatewayFollowupsJob = defineJob({
  id: GATEWAY_FOLLOWUPS_JOB,
  payload: z.object({ clientId: z.number().int().positive().optional() }),
  queue: { retryLimit: 3, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds: 300 },
  handle: async (payload, { db, services }) => {
    await sendDueRepresentments(db, services.gateway, payload.clientId);
    await sendGatewayNotices(db, services.mailer, payload.clientId ?? null);
  },
});
