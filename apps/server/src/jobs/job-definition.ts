import type { BaseLogger } from "pino";
import type { z } from "zod";
import type { Database, Executor } from "../db/database.js";

export type JobLog = Pick<BaseLogger, "info" | "warn" | "error">;

/** pg-boss queue options of one job. Keep jobs short and expiry short: a killed job is retried soon. */
export type QueueSettings = {
  retryLimit: number;
  retryDelaySeconds: number;
  /** A job still active this long after it started is taken as dead (kill -9) and retried. */
  expireInSeconds: number;
};

/** More jobs of the same definition, inserted in the caller's transaction (e.g. a plan's chunks). */
export type EnqueueInTransaction<P> = (
  executor: Executor,
  jobs: readonly { payload: P; priority?: number }[],
) => Promise<void>;

export type JobContext<P> = { db: Database; log: JobLog; enqueue: EnqueueInTransaction<P> };

/**
 * One job: a stable id (pg-boss stores it as the queue name, so never rename it), the payload's
 * zod schema, queue options, and a handler that calls one plain function in modules/.
 */
export type JobDefinition<Id extends string, S extends z.ZodType> = {
  id: Id;
  payload: S;
  queue: QueueSettings;
  // Method syntax: the registry holds definitions of different payloads side by side.
  handle(payload: z.output<S>, context: JobContext<z.input<S>>): Promise<void>;
};

export function defineJob<Id extends string, S extends z.ZodType>(
  definition: JobDefinition<Id, S>,
): JobDefinition<Id, S> {
  return definition;
}
