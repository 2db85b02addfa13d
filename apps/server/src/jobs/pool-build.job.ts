import { z } from "zod";
import { buildPool } from "../modules/delivery/build-pool.js";
import { POOL_BUILD_JOB } from "../modules/delivery/delivery-jobs.js";
import { defineJob } from "./job-definition.js";

/** Draws one print pool's merged PDF and zips it with its manifest. */
export const poolBuildJob = defineJob({
  id: POOL_BUILD_JOB,
  payload: z.object({ poolId: z.number().int().positive() }),
  // A pool of 100,000 statements draws in a few minutes; its progress is written every batch, and
  // each batch renews the job's lease, so the expiry only cuts a build that stopped making progress.
  queue: { retryLimit: 2, retryDelaySeconds: 2, expireInSeconds: 1800, concurrency: "cores" },
  handle: (payload, { db, services, renewLease }) => buildPool(db, services, payload.poolId, renewLease),
});
