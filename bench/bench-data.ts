import path from "node:path";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "../apps/server/src/db/database.js";
import { findLargeClient, generateLargeClient, type LargeClient } from "./generate-large-client.js";

export const SECRET = "bench-secret-0123456789abcdef0123456789";
export const SIZE = {
  customers: Number(process.env.BENCH_CUSTOMERS ?? 50_000),
  transactions: Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000),
};

/** Migrates, then finds the benchmark client or generates it once (it is kept for later runs). */
export async function ensureBenchData(handle: DatabaseHandle, label: string): Promise<LargeClient> {
  await handle.migrate();
  const existing = await findLargeClient(handle.db);
  if (existing && existing.customers === SIZE.customers && existing.transactions >= SIZE.transactions)
    return existing;
  if (existing)
    throw new Error(`${label}: a benchmark client of another size exists; remove the bench database first`);
  console.log(`${label}: generating ${SIZE.customers} customers and ${SIZE.transactions} transactions...`);
  return generateLargeClient(handle.db, SIZE, (line) => console.log(`  ${label} ${line}`));
}

/**
 * The database cyclebill_bench (or BENCH_DATABASE_NAME) on BENCH_DATABASE_URL's server (default: the
 * local test server), created once.
 */
export async function postgresBenchHandle(): Promise<DatabaseHandle> {
  const server = process.env.BENCH_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";
  const name = process.env.BENCH_DATABASE_NAME ?? "cyclebill_bench";
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`BENCH_DATABASE_NAME: not a plain name: ${name}`);
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  const exists = await admin.query("select 1 from pg_database where datname = $1", [name]);
  if (exists.rowCount === 0) await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return openDatabase({ kind: "postgres", url: url.toString(), poolSize: 10 });
}

export const benchDataDir = path.join(path.dirname(new URL(import.meta.url).pathname), ".data");
