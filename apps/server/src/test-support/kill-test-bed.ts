import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DatabaseHandle } from "../db/database.js";
import type { JobQueue } from "../jobs/index.js";
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
