import { loadConfig } from "../config.js";
import type { DatabaseHandle } from "../db/database.js";
import { startJobs, type JobQueue } from "../jobs/index.js";
import type { JobServices } from "../jobs/job-definition.js";

/**
 * The job engine of a process that only queues (as an API started with WORKERS=0), for the tests
 * whose jobs are worked by real worker processes; a killed worker's job is retried within a second.
 * `expireSeconds` gives the queued jobs the workers' expiry; `gateway` is the card gateway's.
 */
export function startQueueOnlyJobs(
  database: DatabaseHandle,
  dataDir: string,
  options: { expireSeconds?: number; gateway?: JobServices["gateway"] } = {},
): Promise<JobQueue> {
  const { jobs } = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: "x" });
  return startJobs({
    db: database.db,
    backend: database.jobBackend,
    settings: { ...jobs, maintenanceSeconds: 1, expireSeconds: options.expireSeconds ?? jobs.expireSeconds },
    log: { info: () => undefined, warn: () => undefined, error: console.error },
    work: false,
    // The worker processes deliver and charge; this process needs no mail of its own.
    services: {
      dataDir,
      publicUrl: "http://billing.test",
      mailer: { send: () => Promise.resolve() },
      gateway: options.gateway ?? {
        url: null,
        mode: "TEST",
        timeoutMs: 1000,
        secretsKey: "queue-only",
        installationId: "queueonly",
      },
    },
  });
}
