import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { z } from "zod";
import type { Database, DatabaseHandle, Executor } from "../db/database.js";
import { queryRows } from "../db/query-rows.js";
import { dbInt } from "../db/row-schemas.js";
import type { JobName, JobPayload, JobQueue } from "../jobs/index.js";
import { chunkResults } from "../modules/jobs/record-chunk.js";
import { getProductionRun } from "../modules/production/production-runs.js";
import { startProductionRun, type StartProductionInput } from "../modules/production/start-production.js";
import { clients } from "../db/tables.js";
import { createUser } from "../modules/users/create-user.js";
import { startQueueOnlyJobs } from "./queue-only-jobs.js";
import { openTestDatabase } from "./test-database.js";
import { startWorkerProcess, type WorkerProcess } from "./worker-process.js";

/**
 * What every kill -9 test starts from: a PostgreSQL test database, a data directory, a job engine
 * in this process that only queues (like an API started with WORKERS=0), and the worker processes
 * the test starts, which are killed at close if still running.
 */
export type KillTestBed = {
  database: DatabaseHandle;
  databaseUrl: string;
  dataDir: string;
  jobs: JobQueue;
  /** Every worker started, in order. */
  workers: WorkerProcess[];
  /** Starts a worker process on the bed's database and data directory. */
  startWorker: (options: Omit<Parameters<typeof startWorkerProcess>[1], "dataDir">) => WorkerProcess;
  close: () => Promise<void>;
};

export async function startKillTestBed(options: {
  /** Names the data directory (e.g. "production-kill"). */
  name: string;
  /** This process's job engine, when it needs other settings than the queue-only default. */
  jobs?: (database: DatabaseHandle, dataDir: string) => Promise<JobQueue>;
  /** Closes what else the test started (a mail server, a gateway sandbox), after the workers. */
  closeAlso?: () => Promise<void>;
}): Promise<KillTestBed> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `cyclebill-${options.name}-`));
  const database = await openTestDatabase();
  if (database.jobBackend.kind !== "postgres") throw new Error("needs PostgreSQL");
  const databaseUrl = database.jobBackend.url;
  const jobs = await (options.jobs ?? startQueueOnlyJobs)(database, dataDir);
  const workers: WorkerProcess[] = [];
  return {
    database,
    databaseUrl,
    dataDir,
    jobs,
    workers,
    startWorker: (workerOptions) => {
      const worker = startWorkerProcess(databaseUrl, { ...workerOptions, dataDir });
      workers.push(worker);
      return worker;
    },
    close: async () => {
      for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill("SIGKILL");
      await Promise.all(workers.map((worker) => worker.exited));
      await jobs.stop();
      await options.closeAlso?.();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A run's steps queued by the bed's engine in the starting transaction, as the API queues them. */
export function enqueueSteps<N extends JobName>(jobs: JobQueue, name: N) {
  return async (tx: Executor, steps: readonly { payload: JobPayload<N>; priority?: number }[]) => {
    for (const step of steps)
      await jobs.enqueue(name, step.payload, { executor: tx, priority: step.priority });
  };
}

/** Starts a production run as a new admin (`adminEmail`), its steps queued for the bed's workers. */
export async function startBedProductionRun(
  bed: KillTestBed,
  adminEmail: string,
  input: StartProductionInput,
) {
  const { db } = bed.database;
  const admin = await createUser(db, { email: adminEmail, password: null, isAdmin: true });
  return startProductionRun(
    db,
    { ...admin, username: admin.email, isAdmin: true, isClientStaff: false, clientId: null },
    input,
    enqueueSteps(bed.jobs, "production-run"),
  );
}

/** Whether a production run is over (done or failed). */
export async function productionRunEnded(db: Database, runId: number): Promise<boolean> {
  return !["queued", "running"].includes((await getProductionRun(db, runId)).status);
}

/**
 * Holds one customer's row FOR UPDATE in a transaction of its own: a worker that locks that
 * customer waits there, mid-chunk, until `release`.
 */
export async function holdCustomer(
  databaseUrl: string,
  clientId: number,
  customerId: number | undefined,
): Promise<{ release: () => Promise<void> }> {
  const locker = new pg.Client({ connectionString: databaseUrl });
  await locker.connect();
  await locker.query("begin");
  await locker.query("select id from customers where client_id = $1 and id = $2 for update", [
    clientId,
    customerId,
  ]);
  return {
    release: async () => {
      await locker.query("commit");
      await locker.end();
    },
  };
}

/** The chunk numbers a run has recorded done, in order. */
export async function doneChunks(db: Database, key: { clientId: number; runId: number }): Promise<number[]> {
  return (await chunkResults(db, key)).map((chunk) => chunk.chunkNo);
}

const lockWaitsRowSchema = z.object({ waiting: dbInt });

/** Whether a query of the given lock (`for update`, `for share`) waits on a lock held elsewhere. */
export async function waitsOnLock(db: Database, lock: "for update" | "for share"): Promise<boolean> {
  const [row] = await queryRows(
    db,
    sql`select count(*)::int as waiting from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query ilike ${`%${lock}%`}`,
    lockWaitsRowSchema,
  );
  return (row?.waiting ?? 0) > 0;
}

/** A client with `values`, and its new owner (`ownerEmail`) as the tenant a run is started for. */
export async function createOwnedClient(
  db: Database,
  values: typeof clients.$inferInsert,
  ownerEmail: string,
) {
  const [client] = await db.insert(clients).values(values).returning();
  if (!client) throw new Error("client not created");
  const owner = await createUser(db, { email: ownerEmail, password: null, clientId: client.id });
  const user = { ...owner, username: owner.email, isAdmin: false, isClientStaff: false, clientId: client.id };
  return { client, tenant: { clientId: client.id, user } };
}
