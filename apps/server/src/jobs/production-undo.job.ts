import { z } from "zod";
import { PRODUCTION_UNDO_JOB, runProductionUndo } from "../modules/production/undo-production.js";
import { defineJob } from "./job-definition.js";

const id = z.number().int().positive();

/** Takes one client's part of a production run back, while none of it has gone out. */
export const productionUndoJob = defineJob({
  id: PRODUCTION_UNDO_JOB,
  payload: z.object({ clientId: id, runId: id, productionRunId: id }),
  // One transaction per part: a killed worker's undo rolls back and the retry does it once.
  queue: { retryLimit: 3, retryDelaySeconds: 1, expireInSeconds: 600 },
  handle: (payload, { db, services }) => runProductionUndo(db, payload, services.dataDir),
});
