import { buildApp } from "./app.js";
import { bootstrapData, formatDemoLogins } from "./bootstrap.js";
import { loadConfig } from "./config.js";
import { openDatabase } from "./db/database.js";

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config.database);
  await database.migrate();
  const app = await buildApp({ db: database.db, config });
  const logins = await bootstrapData(database.db, config, app.log);
  await app.listen({ port: config.port, host: config.host });
  if (logins.length > 0) process.stdout.write(formatDemoLogins(logins, config.publicUrl) + "\n");

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, "shutting down");
    await app.close();
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
