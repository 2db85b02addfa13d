import { withAuditActor } from "../modules/audit/audit-context.js";
import { sql } from "drizzle-orm";
import { pgErrorCode } from "../db/pg-errors.js";
import type PgBoss from "pg-boss";
import { z } from "zod";
import { currentClock } from "../clock.js";
import type { JobSettings } from "../config.js";
import type { Database, Executor, JobBackend } from "../db/database.js";
import { failJobRun } from "../modules/jobs/job-runs.js";
import type { JobDefinition, JobLog, JobServices } from "./job-definition.js";
import { startJobEngine } from "./job-engine.js";
import { cardRunJob } from "./card-run.job.js";
import { ledgerCheckJob } from "./ledger-check.job.js";
import { poolBuildJob } from "./pool-build.job.js";
import { productionRunJob } from "./production-run.job.js";
import { productionUndoJob } from "./production-undo.job.js";
import { statementEmailJob } from "./statement-email.job.js";
import { PAYMENT_RECEIPTS_CRON, paymentReceiptsJob } from "./payment-receipts.job.js";
import { availableParallelism } from "node:os";
import { failPool } from "../modules/delivery/build-pool.js";
import { REFRESH_STATISTICS_CRON } from "../modules/maintenance/refresh-statistics.js";
import { refreshStatisticsJob } from "./refresh-statistics.job.js";
import { PRUNE_CUSTOMER_CHANGES_CRON, pruneCustomerChangesJob } from "./prune-customer-changes.job.js";
import { SETTLE_PAYMENTS_CRON, settlePaymentsJob } from "./settle-payments.job.js";
import { transactionJobDb } from "./sql-adapters.js";
import { EXPIRING_CARDS_CRON, expiringCardsJob } from "./expiring-cards.job.js";
import { gatewayReconcileDailyJob, gatewayReconcileJob } from "./gateway-reconcile.job.js";
import { GATEWAY_RECONCILE_CRON } from "../modules/gateway-reconcile/gateway-reconcile-run.js";
import { GATEWAY_FOLLOWUPS_CRON, gatewayFollowupsJob } from "./gateway-followups.job.js";
import { PRODUCTION_SCHEDULE_CRON, productionScheduleJob } from "./production-schedule.job.js";

/** Every job, the only registry: a job not listed here is never queued nor worked. */
export const jobDefinitions = [
  ledgerCheckJob,
  productionRunJob,
  productionUndoJob,
  refreshStatisticsJob,
  pruneCustomerChangesJob,
  poolBuildJob,
  statementEmailJob,
  cardRunJob,
  settlePaymentsJob,
  paymentReceiptsJob,
  expiringCardsJob,
  gatewayReconcileJob,
  gatewayReconcileDailyJob,
  gatewayFollowupsJob,
  productionScheduleJob,
] as const;

type Definition = (typeof jobDefinitions)[number];
export type JobName = Definition["id"];
export type JobPayload<N extends JobName> = z.input<Extract<Definition, { id: N }>["payload"]>;

/**
 * A job that runs out of retries (its handler kept failing, or its worker kept dying) is copied
 * by pg-boss to this queue; its worker marks the job's run failed, so no run stays "running".
 */
const FAILED_JOBS_QUEUE = "failed-jobs";
const runKeyPayload = z.looseObject({ clientId: z.number().int(), runId: z.number().int() });
const poolKeyPayload = z.looseObject({ poolId: z.number().int() });

export type JobQueue = {
  /** Queues a job; with an executor, inside that open transaction (commits or rolls back with it). */
  enqueue: <N extends JobName>(
    name: N,
    payload: JobPayload<N>,
    options?: { executor?: Executor; priority?: number },
  ) => Promise<void>;
  /** Stops polling and waits for the jobs in hand (up to 30 s), as on SIGTERM. */
  stop: () => Promise<void>;
};

export type StartJobsOptions = {
  db: Database;
  backend: JobBackend;
  settings: JobSettings;
  log: JobLog;
  /** Whether this process works on jobs (settings.workers loops per queue) or only queues them. */
  work: boolean;
  services: JobServices;
};

/** Starts pg-boss, creates every queue, and works on them only when this process works. */
export async function startJobs(options: StartJobsOptions): Promise<JobQueue> {
  const { db, settings, log } = options;
  const boss = await startJobEngine(options.backend, settings, log);
  await ensureQueue(boss, FAILED_JOBS_QUEUE, { retryLimit: 3, retryDelay: 1, expireInSeconds: 60 });
  for (const definition of jobDefinitions) {
    await ensureQueue(boss, definition.id, {
      retryLimit: definition.queue.retryLimit,
      retryDelay: definition.queue.retryDelaySeconds,
      expireInSeconds: settings.expireSeconds ?? definition.queue.expireInSeconds,
      retryBackoff: definition.queue.retryBackoff ?? false,
      deadLetter: FAILED_JOBS_QUEUE,
    });
  }

  const insert = (jobs: PgBoss.JobInsert[], executor: Executor | undefined) =>
    executor ? boss.insert(jobs, { db: transactionJobDb(executor) }) : boss.insert(jobs);

  // Statistics where no autovacuum keeps them (the job does nothing where one does). pg-boss keeps
  // one schedule per name, however many processes set it.
  if (options.work && settings.workers > 0) {
    await boss.schedule(refreshStatisticsJob.id, REFRESH_STATISTICS_CRON, {});
    await boss.schedule(pruneCustomerChangesJob.id, PRUNE_CUSTOMER_CHANGES_CRON, {});
    await boss.schedule(settlePaymentsJob.id, SETTLE_PAYMENTS_CRON, {});
    await boss.schedule(paymentReceiptsJob.id, PAYMENT_RECEIPTS_CRON, {});
    await boss.schedule(expiringCardsJob.id, EXPIRING_CARDS_CRON, {});
    await boss.schedule(gatewayReconcileDailyJob.id, GATEWAY_RECONCILE_CRON, {});
    await boss.schedule(gatewayFollowupsJob.id, GATEWAY_FOLLOWUPS_CRON, {});
    await boss.schedule(productionScheduleJob.id, PRODUCTION_SCHEDULE_CRON, {
      chunkSize: settings.chunkSize,
    });
  }

  if (options.work && settings.workers > 0) {
    const workOptions = { batchSize: 1, pollingIntervalSeconds: settings.pollSeconds };
    for (let loop = 0; loop < settings.workers; loop += 1) {
      for (const definition of jobDefinitions) {
        const { concurrency } = definition.queue;
        const loops = concurrency === "cores" ? availableParallelism() : (concurrency ?? 1);
        for (let copy = 0; copy < loops; copy += 1)
          await boss.work(definition.id, workOptions, ([job]) =>
            job
              ? runJob<string, z.ZodType>(definition, job.data, {
                  db,
                  log,
                  insert,
                  services: options.services,
                  renewLease: () => renewJobLease(db, job.name, job.id),
                })
              : Promise.resolve(),
          );
      }
      await boss.work(FAILED_JOBS_QUEUE, { ...workOptions, includeMetadata: true }, async ([job]) => {
        const message = failureMessage(job?.output);
        const pool = poolKeyPayload.safeParse(job?.data);
        if (pool.success) {
          log.error({ poolId: pool.data.poolId, error: message }, "pool build failed");
          await failPool(db, pool.data.poolId, message);
          return;
        }
        const key = runKeyPayload.safeParse(job?.data);
        if (!key.success) return;
        log.error({ runId: key.data.runId, clientId: key.data.clientId, error: message }, "job run failed");
        await failJobRun(db, key.data, message);
      });
    }
  }

  return {
    enqueue: async (name, payload, enqueueOptions = {}) => {
      const definition = jobDefinitions.find((candidate) => candidate.id === name);
      if (!definition) throw new Error(`unknown job ${name}`);
      const data = definition.payload.parse(payload);
      await insert([{ name, data, priority: enqueueOptions.priority ?? 0 }], enqueueOptions.executor);
    },
    stop: () => boss.stop({ graceful: true, timeout: 30_000 }),
  };
}

async function runJob<Id extends string, S extends z.ZodType>(
  definition: JobDefinition<Id, S>,
  data: unknown,
  deps: {
    db: Database;
    log: JobLog;
    insert: (jobs: PgBoss.JobInsert[], executor: Executor | undefined) => Promise<unknown>;
    services: JobServices;
    renewLease: () => Promise<void>;
  },
): Promise<void> {
  const parsed = definition.payload.safeParse(data);
  // No retry can fix a payload; the message names the fields for the run's error.
  if (!parsed.success)
    throw new Error(`${definition.id}: the payload does not parse: ${z.prettifyError(parsed.error)}`);
  // What the job writes is the job's doing in the audit trail (its run names who started it).
  const payload: Record<string, unknown> =
    typeof parsed.data === "object" && parsed.data !== null ? (parsed.data as Record<string, unknown>) : {};
  const runId = payload.runId ?? payload.jobRunId;
  const actor = {
    kind: "job" as const,
    userId: null,
    label: `job: ${definition.id}${typeof runId === "number" ? ` (run ${String(runId)})` : ""}`,
    address: null,
    userAgent: null,
  };
  await withAuditActor(actor, () => handleJob(definition, parsed.data, deps));
}

async function handleJob<Id extends string, S extends z.ZodType>(
  definition: JobDefinition<Id, S>,
  data: z.output<S>,
  deps: {
    db: Database;
    log: JobLog;
    insert: (jobs: PgBoss.JobInsert[], executor: Executor | undefined) => Promise<unknown>;
    services: JobServices;
    renewLease: () => Promise<void>;
  },
): Promise<void> {
  await definition.handle(data, {
    db: deps.db,
    log: deps.log,
    renewLease: deps.renewLease,
    enqueue: async (executor, jobs) => {
      const inserts = jobs.map((job) => ({
        name: definition.id,
        data: definition.payload.parse(job.payload) as object,
        priority: job.priority ?? 0,
      }));
      await deps.insert(inserts, executor);
    },
    enqueueJobs: async (executor, jobs) => {
      const inserts = jobs.map((job) => {
        const other = jobDefinitions.find((candidate) => candidate.id === job.name);
        if (!other) throw new Error(`unknown job ${job.name}`);
        return {
          name: other.id,
          data: other.payload.parse(job.payload) as object,
          priority: job.priority ?? 0,
          // A job due later (autopay on its charge date) waits in the queue until then.
          ...(job.startAfter ? { startAfter: delayFromNow(job.startAfter) } : {}),
        };
      });
      if (inserts.length > 0) await deps.insert(inserts, executor);
    },
    services: deps.services,
  });
}

/**
 * A due time from the app's clock as pg-boss's relative start ("N" seconds, which it adds to the
 * database's now()): pg-boss decides with the database server's clock, so an absolute time from a
 * shifted app clock (tests run a year ahead under faketime) would wait that shift too.
 */
export function delayFromNow(at: Date, now = currentClock().now()): string {
  return String(Math.max(0, Math.ceil((at.getTime() - now.getTime()) / 1000)));
}

/**
 * Restarts an active job's expiry clock. pg-boss 10 has no heartbeat: its maintenance fails (and
 * retries) a job whose started_on + expire_in has passed, so moving started_on forward is the
 * lease renewal. Only an active job of this name and id is touched (a retry has a new state).
 */
export async function renewJobLease(db: Database, name: string, id: string): Promise<void> {
  await db.execute(
    sql`update pgboss.job set started_on = now() where name = ${name} and id = ${id}::uuid and state = 'active'`,
  );
}

/**
 * Creates a queue, or brings an existing one's options up to date (pg-boss keeps the first).
 * Processes starting at once on one database create the same queues together: pg-boss's
 * statements can then deadlock or collide, and simply trying again settles it.
 */
async function ensureQueue(boss: PgBoss, name: string, options: Omit<PgBoss.Queue, "name">) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await boss.createQueue(name, { ...options, name });
      await boss.updateQueue(name, { ...options, name });
      return;
    } catch (error) {
      const code = pgErrorCode(error);
      const racing = code === "40P01" || code === "40001" || code === "23505" || code === "42P07";
      if (!racing || attempt >= 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
    }
  }
}

function failureMessage(output: unknown): string {
  const parsed = z
    .object({ message: z.string().optional(), value: z.object({ message: z.string() }).partial().optional() })
    .safeParse(output);
  return (parsed.success && (parsed.data.message ?? parsed.data.value?.message)) || "The job failed.";
}
