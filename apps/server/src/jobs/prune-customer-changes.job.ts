import { z } from "zod";
import { pruneCustomerChanges } from "../modules/ledger/customer-changes.js";
import { defineJob } from "./job-definition.js";

export const PRUNE_CUSTOMER_CHANGES_CRON = "7 * * * *";

/** Hourly, scheduled by startJobs: drops change-log rows older than a day (no client book needs them). */
export const pruneCustomerChangesJob = defineJob({
  id: "prune-customer-changes",
  payload: z.object({}),
  // A missed prune is made up by the next one.
  queue: { retryLimit: 0, retryDelaySeconds: 1, expireInSeconds: 600 },
  handle: async (_payload, { db }) => {
    await pruneCustomerChanges(db);
  },
});
