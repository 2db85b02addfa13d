import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { refreshStatistics } from "../modules/maintenance/refresh-statistics.js";
import * as tables from "./tables.js";

export type Schema = typeof tables;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A database handle or an open transaction: functions that write money take this. */
export type Executor = Pick<Database, "select" | "insert" | "update" | "delete" | "execute" | "transaction">;

/** What the job engine (pg-boss) runs on: the same PGlite instance, or its own pool on the same URL. */
export type JobBackend = { kind: "pglite"; client: PGlite } | { kind: "postgres"; url: string };

export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  jobBackend: JobBackend;
  migrate: () => Promise<void>;
  close: () => Promise<void>;
};

export type DatabaseTarget =
  | { kind: "pglite"; dataDir: string | null } // null = in memory (tests)
  | { kind: "postgres"; url: string; poolSize?: number };

/** Advisory lock key that serialises migrations across processes (any fixed bigint). */
const MIGRATION_LOCK_KEY = 7_316_221_043;

const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === "pglite") {
    if (target.dataDir) mkdirSync(target.dataDir, { recursive: true });
    // pg_trgm backs the customer list's text search (created by a migration, loaded here).
    const options = { extensions: { pg_trgm } };
    const client = target.dataDir ? new PGlite(target.dataDir, options) : new PGlite(options);
    await client.waitReady;
    const db = drizzlePglite(client, { schema: tables });
    return {
      db: db as unknown as Database,
      kind: "pglite",
      jobBackend: { kind: "pglite", client },
      migrate: async () => {
        await migratePglite(db, { migrationsFolder });
        // PGlite runs no autovacuum: refresh the planner's statistics once at start, so set-based
        // postings on a large client use the indexes behind their foreign-key checks.
        await refreshStatistics(db as unknown as Database);
      },
      close: () => client.close(),
    };
  }
  const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? 10 });
  // An idle client's network error must not crash the process; the pool replaces it.
  pool.on("error", () => undefined);
  const db = drizzleNodePg(pool, { schema: tables });
  return {
    db: db as unknown as Database,
    kind: "postgres",
    jobBackend: { kind: "postgres", url: target.url },
    migrate: async () => {
      // Several API processes may start at once on one database: one migrates while the others
      // wait on a session advisory lock, then find nothing left to apply.
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        try {
          await migrateNodePg(drizzleNodePg(client, { schema: tables }), { migrationsFolder });
        } finally {
          await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
        }
      } finally {
        client.release();
      }
      // A server running without autovacuum gets its statistics at start too.
      await refreshStatistics(db as unknown as Database);
    },
    close: () => pool.end(),
  };
}
