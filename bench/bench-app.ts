// The API over the benchmark client (50,000 customers, 1,000,000 postings) for the benchmarks that
// time its requests: customer list, transactions, account reports.
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { buildApp } from "../apps/server/src/app.js";
import { loadConfig } from "../apps/server/src/config.js";
import { openDatabase, type DatabaseHandle } from "../apps/server/src/db/database.js";
import { issueSessionToken } from "../apps/server/src/modules/auth/start-session.js";
import { benchDataDir, ensureBenchData, postgresBenchHandle, SECRET } from "./bench-data.js";

/** The benchmark client (made once), the API listening on a free local port, and its owner's token. */
export async function startBenchApp(handle: DatabaseHandle, label: string) {
  const client = await ensureBenchData(handle, label);
  const config = {
    ...loadConfig({
      DATA_DIR: benchDataDir,
      JWT_SECRET: SECRET,
      BILLING_SECRETS_KEY: "bench",
      ADMIN_SECOND_FACTOR: "optional",
    }),
    webDistDir: "/none",
  };
  const app = await buildApp({ db: handle.db, config }, { logger: false });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const token = await issueSessionToken(handle.db, SECRET, client.ownerUserId, {
    address: "127.0.0.1",
    userAgent: "bench",
  });
  return { client, app, port, token };
}

/** The p-th percentile (0 to 100) of timings sorted ascending. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * Runs `measure` on the kept benchmark databases: PGlite in bench/.data, then PostgreSQL;
 * `only` ("--pglite-only" or "--postgres-only") leaves the other out.
 */
export async function measureOnBenchDatabases(
  only: string | undefined,
  measure: (handle: DatabaseHandle, label: string) => Promise<void>,
): Promise<void> {
  if (only !== "--postgres-only") {
    const dataDir = path.join(benchDataDir, "pglite");
    if (!existsSync(dataDir)) mkdirSync(dataDir, { recursive: true });
    const handle = await openDatabase({ kind: "pglite", dataDir });
    await measure(handle, "PGlite");
    await handle.close();
  }
  if (only !== "--pglite-only") {
    const handle = await postgresBenchHandle();
    await measure(handle, "PostgreSQL");
    await handle.close();
  }
}
