import { z } from "zod";
import { STATEMENT_EMAIL_JOB } from "../modules/delivery/delivery-jobs.js";
import { sendStatementEmails } from "../modules/delivery/send-statement-emails.js";
import { defineJob } from "./job-definition.js";

const id = z.number().int().positive();

/** Emails one client's statements of one run, each with its PDF and pay link. */
export const statementEmailJob = defineJob({
  id: STATEMENT_EMAIL_JOB,
  payload: z.object({ clientId: id, productionRunId: id }),
  // Failed sends are retried by the job with growing delays (5 s, 10 s, 20 s, ...).
  queue: { retryLimit: 5, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds: 900 },
  handle: async (payload, { db, services }) => {
    await sendStatementEmails(db, services, payload);
  },
});
