import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase } from "../db/database.js";

/**
 * The server project's global set-up (vitest.config.ts): migrates one database per test run, and
 * every test database starts as a copy of it (test-database.ts) instead of migrating its own. On
 * PGlite the copy is a tarball of the migrated data directory; on PostgreSQL a template database.
 * The workers find them by these variables, which they inherit from this process.
 */
export const PGLITE_TEMPLATE_ENV = "CYCLEBILL_TEST_PGLITE_TEMPLATE";
export const POSTGRES_TEMPLATE_ENV = "CYCLEBILL_TEST_POSTGRES_TEMPLATE";

/** A database name of the PostgreSQL server of `serverUrl`, as a connection URL. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on the server's own database (CREATE, ALTER, DROP DATABASE). */
export async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

async function pgliteTemplate(): Promise<() => void> {
  const handle = await openDatabase({ kind: "pglite", dataDir: null });
  await handle.migrate();
  if (handle.jobBackend.kind !== "pglite") throw new Error("expected PGlite");
  // Uncompressed: each test database unpacks it, and gunzip would cost more than reading the file.
  const tarball = await handle.jobBackend.client.dumpDataDir("none");
  await handle.close();
  const dir = mkdtempSync(path.join(tmpdir(), "cyclebill-test-template-"));
  const file = path.join(dir, "pgdata.tar");
  writeFileSync(file, new Uint8Array(await tarball.arrayBuffer()));
  process.env[PGLITE_TEMPLATE_ENV] = file;
  return () => rmSync(dir, { recursive: true, force: true });
}

async function postgresTemplate(serverUrl: string): Promise<() => Promise<void>> {
  // One per run, named apart: runs from other worktrees on the same server keep their own.
  const name = `cyclebill_template_${randomBytes(6).toString("hex")}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const handle = await openDatabase({ kind: "postgres", url: databaseUrl(serverUrl, name), poolSize: 1 });
  try {
    await handle.migrate();
  } finally {
    await handle.close();
  }
  // CREATE DATABASE ... TEMPLATE refuses while anyone is connected to the template: nobody may be.
  await adminQuery(serverUrl, `ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
  process.env[POSTGRES_TEMPLATE_ENV] = name;
  return async () => {
    await adminQuery(serverUrl, `ALTER DATABASE ${name} WITH IS_TEMPLATE false`);
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name}`);
  };
}

let removeTemplate: (() => void | Promise<void>) | undefined;

export async function setup(): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (process.env.TEST_DB === "postgres") {
    if (serverUrl) removeTemplate = await postgresTemplate(serverUrl);
  } else {
    removeTemplate = await pgliteTemplate();
  }
}

export async function teardown(): Promise<void> {
  await removeTemplate?.();
}
