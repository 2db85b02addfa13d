import { loadConfig } from "../config.js";
import type { DatabaseHandle } from "../db/database.js";
import { startJobs, type JobQueue } from "../jobs/index.js";

/**
 * The job engine of a process that only queues (as an API started with WORKERS=0), for the tests
 * whose jobs are worked by real worker processes; a killed worker's job is retried within a second.
 */
export function startQueueOnlyJobs(database: DatabaseHandle, dataDir: string): Promise<JobQueue> {
  return startJobs({
    db: database.db,
    backend: database.jobBackend,
    settings: { ...loadConfig({ DATA_DIR: dataDir, JWT_SECRET: "x" }).jobs, maintenanceSeconds: 1 },
    log: { info: () => undefined, warn: () => undefined, error: console.error },
    work: false,
    // The worker processes deliver and charge; this process needs no mail or gateway of its own.
    services: {
      dataDir,
      publicUrl: "http://billing.test",
      mailer: { send: () => Promise.resolve() },
      gateway: { url: null, mode: "TEST", timeoutMs: 1000, secretsKey: "queue-only" },
    },
  });
}
