import { pino } from "pino";
import { loadConfig } from "./config.js";
import { openDatabase } from "./db/database.js";
import { startJobs } from "./jobs/index.js";
import { createMailer } from "./modules/mail/mailer.js";
import { paymentGatewayOf } from "./modules/payments/payment-gateway.js";

/**
 * `npm run worker`: a process that only works on jobs, beside API processes started with
 * WORKERS=0, all on one PostgreSQL database. It does not migrate: `npm start` (or
 * `npm run db:migrate`) does, so that two processes never race to apply a migration.
 */
async function main(): Promise<number> {
  const config = loadConfig();
  const log = pino({ level: config.logLevel, name: "worker" });
  if (config.database.kind !== "postgres") {
    log.error(
      "npm run worker needs DATABASE_URL (PostgreSQL); on PGlite, npm start works on the jobs itself",
    );
    return 1;
  }
  if (config.jobs.workers === 0) {
    log.error("WORKERS=0 leaves a worker nothing to do");
    return 1;
  }
  const database = await openDatabase(config.database);
  const jobs = await startJobs({
    db: database.db,
    backend: database.jobBackend,
    settings: config.jobs,
    log,
    work: true,
    services: {
      dataDir: config.dataDir,
      publicUrl: config.publicUrl,
      mailer: createMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, log: log }),
      gateway: paymentGatewayOf(config),
    },
  });
  log.info({ workers: config.jobs.workers, pid: process.pid }, "worker started");

  const shutdown = async (signal: string) => {
    log.info({ signal }, "worker stopping");
    await jobs.stop();
    await database.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  return 0;
}

main()
  .then((code) => {
    if (code !== 0) process.exit(code);
  })
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
