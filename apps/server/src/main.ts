import { pino } from "pino";
import { buildApp } from "./app.js";
import { bootstrapData, formatDemoLogins } from "./bootstrap.js";
import { loadConfig } from "./config.js";
import { openDatabase } from "./db/database.js";
import { startJobs } from "./jobs/index.js";
import { createMailer } from "./modules/mail/mailer.js";
import { paymentGatewayOf } from "./modules/payments/payment-gateway.js";

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config.database);
  await database.migrate();
  const jobLog = pino({ level: config.logLevel, name: "jobs" });
  // On PGlite this process is the only one that can open the database, so it works on the jobs
  // too; on PostgreSQL WORKERS=0 leaves them to `npm run worker` processes.
  const work = config.jobs.workers > 0;
  if (!work && database.kind === "pglite")
    jobLog.warn("WORKERS=0 on PGlite: jobs are queued, but no other process can work on them");
  const jobs = await startJobs({
    db: database.db,
    backend: database.jobBackend,
    settings: config.jobs,
    log: jobLog,
    work,
    services: {
      dataDir: config.dataDir,
      publicUrl: config.publicUrl,
      mailer: createMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, log: jobLog }),
      gateway: paymentGatewayOf(config),
    },
  });
  const app = await buildApp({ db: database.db, config, jobs });
  const logins = await bootstrapData(database.db, config, app.log);
  await app.listen({ port: config.port, host: config.host });
  if (logins.length > 0) process.stdout.write(formatDemoLogins(logins, config.publicUrl) + "\n");

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, "shutting down");
    await app.close();
    // Waits for the jobs in hand; pg-boss retries any it had to give up.
    await jobs.stop();
    await database.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
