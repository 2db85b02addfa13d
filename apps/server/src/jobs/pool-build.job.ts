import { z } from "zod";
import { buildPool } from "../modules/delivery/build-pool.js";
import { POOL_BUILD_JOB } from "../modules/delivery/delivery-jobs.js";
import { defineJob } from "./job-definition.js";
import { withLeaseHeartbeat } from "./lease-heartbeat.js";

/** A build renews its lease this often while it runs (well inside the expiry below). */
export const POOL_BUILD_BEAT_MS = 5_000;
/** A build that drew no batch for this long (a batch takes seconds) stops renewing and is cut. */
const POOL_BUILD_STALL_MS = 10 * 60_000;

/** Draws one print pool's merged PDF and zips it with its manifest. */
export const poolBuildJob = defineJob({
  id: POOL_BUILD_JOB,
  payload: z.object({ poolId: z.number().int().positive() }),
  // The build beats every 5 s and after each batch, so a short expiry is enough: a build whose
  // worker died is retried (and takes the pool over) about 30 s after its last beat, not after a
  // wall-clock lease of 30 minutes, while a live build of 100,000 statements is never cut.
  queue: { retryLimit: 2, retryDelaySeconds: 2, expireInSeconds: 30, concurrency: "cores" },
  handle: (payload, { db, services, renewLease }) =>
    withLeaseHeartbeat(renewLease, (progress) => buildPool(db, services, payload.poolId, progress), {
      everyMs: POOL_BUILD_BEAT_MS,
      stallMs: POOL_BUILD_STALL_MS,
    }),
});
