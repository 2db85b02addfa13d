import { z } from "zod";
import { refreshStatistics } from "../db/refresh-statistics.js";
import { REFRESH_STATISTICS_JOB } from "../modules/maintenance/refresh-statistics.js";
import { defineJob } from "./job-definition.js";

/** Scheduled by startJobs: ANALYZE where no autovacuum does it (PGlite, or PostgreSQL with it off). */
export const refreshStatisticsJob = defineJob({
  id: REFRESH_STATISTICS_JOB,
  payload: z.object({}),
  // A missed refresh is made up by the next one; no retries pile up behind a slow ANALYZE.
  queue: { retryLimit: 0, retryDelaySeconds: 1, expireInSeconds: 600 },
  handle: async (_payload, { db }) => {
    await refreshStatistics(db);
  },
});
