// Throw-away databases for the benchmarks that build their own data: an in-memory PGlite and a new
// PostgreSQL database, dropped afterwards.
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "../apps/server/src/db/database.js";

const serverUrl = () => process.env.BENCH_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";

/** Drops the database of that name on BENCH_DATABASE_URL, if it is there. */
export async function dropDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}

/**
 * A new PostgreSQL database of that name on BENCH_DATABASE_URL (dropped first if left over): empty,
 * or a copy of the `template` database (which must have no connections open).
 */
export async function freshPostgres(
  name: string,
  poolSize = 2,
  template?: string,
): Promise<{ handle: DatabaseHandle; url: string; drop: () => Promise<void> }> {
  const server = serverUrl();
  await dropDatabase(name);
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ""}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: "postgres", url: url.toString(), poolSize });
  return {
    handle,
    url: url.toString(),
    drop: async () => {
      await handle.close();
      await dropDatabase(name);
    },
  };
}

/**
 * Runs `measure` on an in-memory PGlite and on a fresh PostgreSQL database `name` (dropped after);
 * --pglite-only or --postgres-only on the command line leaves the other out.
 */
export async function measureOnFreshDatabases(
  name: string,
  poolSize: number,
  measure: (handle: DatabaseHandle, label: string) => Promise<void>,
): Promise<void> {
  const args = new Set(process.argv.slice(2));
  if (!args.has("--postgres-only")) {
    const handle = await openDatabase({ kind: "pglite", dataDir: null });
    await measure(handle, "PGlite (in memory)");
    await handle.close();
  }
  if (!args.has("--pglite-only")) {
    const { handle, drop } = await freshPostgres(name, poolSize);
    try {
      await measure(handle, "PostgreSQL");
    } finally {
      await drop();
    }
  }
}
