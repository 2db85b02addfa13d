import type { BaseLogger } from "pino";
import type { z } from "zod";
import type { Database, Executor } from "../db/database.js";
import type { DeliveryServices } from "../modules/delivery/delivery-jobs.js";
import type { Mailer } from "../modules/mail/mailer.js";
import type { PaymentGateway } from "../modules/payments/payment-gateway.js";

export type JobLog = Pick<BaseLogger, "info" | "warn" | "error">;

/** pg-boss queue options of one job. Keep jobs short and expiry short: a killed job is retried soon. */
export type QueueSettings = {
  retryLimit: number;
  retryDelaySeconds: number;
  /** A job still active this long after it started is taken as dead (kill -9) and retried. */
  expireInSeconds: number;
  /** Retry delays double each time (e.g. a mail server that refuses for a while). */
  retryBackoff?: boolean;
  /**
   * Jobs of this queue one process works on at once, per worker loop: "cores" for CPU work done in
   * threads, a number for jobs that mostly wait (a card run's chunks wait on the gateway).
   */
  concurrency?: "cores" | number;
};

/** More jobs of the same definition, inserted in the caller's transaction (e.g. a plan's chunks). */
export type EnqueueInTransaction<P> = (
  executor: Executor,
  jobs: readonly { payload: P; priority?: number }[],
) => Promise<void>;

/** Jobs of other definitions, inserted in the caller's transaction (checked against their schemas). */
export type EnqueueOtherJobs = (
  executor: Executor,
  jobs: readonly { name: string; payload: unknown; priority?: number; startAfter?: Date }[],
) => Promise<void>;

/** What jobs use beyond the database: where files live, the public address, mail, the card gateway. */
export type JobServices = DeliveryServices & { mailer: Mailer; gateway: PaymentGateway };

export type JobContext<P> = {
  db: Database;
  log: JobLog;
  /**
   * Renews this job's lease: pg-boss (10.x has no heartbeat) takes a job still active past its
   * expiry as dead and retries it; a long job that calls this as it makes progress is not cut.
   */
  renewLease: () => Promise<void>;
  enqueue: EnqueueInTransaction<P>;
  enqueueJobs: EnqueueOtherJobs;
  services: JobServices;
};

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
