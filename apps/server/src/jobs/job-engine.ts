import PgBoss from "pg-boss";
import type { JobSettings } from "../config.js";
import type { JobBackend } from "../db/database.js";
import type { JobLog } from "./job-definition.js";
import { pgliteJobDb } from "./sql-adapters.js";

/**
 * Starts pg-boss (10.x: the line that runs on Node 20) on our database: its own small pool on
 * PostgreSQL, or the same PGlite instance through the `db` adapter. It creates or migrates its
 * schema ("pgboss") on first start.
 */
export async function startJobEngine(
  backend: JobBackend,
  settings: JobSettings,
  log: JobLog,
): Promise<PgBoss> {
  const common = {
    // The timekeeper queues cron jobs (the statistics refresh).
    schedule: true,
    // Maintenance moves jobs whose worker died (still active past their expiry) to retry.
    supervise: true,
    maintenanceIntervalSeconds: settings.maintenanceSeconds,
  };
  const boss =
    backend.kind === "pglite"
      ? new PgBoss({ ...common, db: pgliteJobDb(backend.client) })
      : new PgBoss({ ...common, connectionString: backend.url, max: 4, application_name: "cyclebill-jobs" });
  boss.on("error", (error: unknown) => log.error({ err: error }, "job engine error"));
  await boss.start();
  return boss;
}
