import { createServer } from "node:net";
import { spawnServerScript, type WorkerProcess } from "./worker-process.js";

// A real API process (src/main.ts, as `WORKERS=0 npm start` runs it on PostgreSQL) for the tests
// that prove the product across several processes on one database.

export type ServerProcess = WorkerProcess & { baseUrl: string };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts an API-only process on the database and waits until /api/health/ answers. */
export async function startServerProcess(
  databaseUrl: string,
  options: { dataDir: string; env?: Record<string, string> },
): Promise<ServerProcess> {
  const port = await freePort();
  const { child, output, exited } = spawnServerScript("src/main.ts", {
    DATABASE_URL: databaseUrl,
    DATA_DIR: options.dataDir,
    PORT: String(port),
    JWT_SECRET: "multi-process-test",
    ADMIN_SECOND_FACTOR: "optional",
    BILLING_SECRETS_KEY: "multi-process-test",
    BILLING_DEMO: "0",
    WORKERS: "0",
    LOG_LEVEL: "warn",
    ...options.env,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API process exited\n${output.join("")}`);
    const healthy = await fetch(`${baseUrl}/api/health/`)
      .then((response) => response.ok)
      .catch(() => false);
    if (healthy) break;
    if (Date.now() > deadline) throw new Error(`the API process did not start\n${output.join("")}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { child, output, exited, baseUrl };
}
