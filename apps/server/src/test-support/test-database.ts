import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { openDatabase, type DatabaseHandle } from "../db/database.js";
import { PGLITE_TEMPLATE_ENV, POSTGRES_TEMPLATE_ENV, adminQuery, databaseUrl } from "./test-templates.js";

/** The migrated data directory's tarball, read once per test file. */
let pgliteTemplate: Blob | undefined;

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database
 * on the PostgreSQL server of TEST_DATABASE_URL when TEST_DB=postgres (dropped on close).
 * Each starts as a copy of the database the run's global set-up migrated (test-templates.ts), which
 * is what migrating it would give; without that set-up (another config) it migrates its own.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  if (process.env.TEST_DB !== "postgres") {
    const templateFile = process.env[PGLITE_TEMPLATE_ENV];
    if (templateFile) {
      pgliteTemplate ??= new Blob([readFileSync(templateFile)]);
      return openDatabase({ kind: "pglite", dataDir: null, from: pgliteTemplate });
    }
    const handle = await openDatabase({ kind: "pglite", dataDir: null });
    await handle.migrate();
    return handle;
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
  const name = `cyclebill_test_${randomBytes(6).toString("hex")}`;
  const template = process.env[POSTGRES_TEMPLATE_ENV];
  await adminQuery(serverUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  const handle = await openDatabase({ kind: "postgres", url: databaseUrl(serverUrl, name), poolSize: 5 });
  if (!template) await handle.migrate();
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
