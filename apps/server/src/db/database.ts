import { PGlite, types as pgliteTypes } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { refreshStatistics } from "./refresh-statistics.js";
import * as tables from "./tables.js";
import { AUTH_NOTICE_CHANNEL, attachAuthCache } from "./auth-cache.js";
import { attachPreparedRunner, type PreparedRunner } from "./prepared-rows.js";
import type { Database } from "./database-types.js";
import { bufferAuditInTransactions } from "../modules/audit/record-audit.js";

/** Dates, timestamps and intervals stay text, as drizzle reads them (prepared-rows.ts). */
const TEXT_TYPE_IDS = new Set([1082, 1114, 1184, 1186]);
const rawTextTypes = {
  getTypeParser: ((typeId: number, format?: "text" | "binary") =>
    TEXT_TYPE_IDS.has(typeId)
      ? (value: string) => value
      : pg.types.getTypeParser(typeId, format)) as typeof pg.types.getTypeParser,
};
const pgliteTextParsers = Object.fromEntries(
  [pgliteTypes.DATE, pgliteTypes.TIMESTAMP, pgliteTypes.TIMESTAMPTZ, pgliteTypes.INTERVAL].map((typeId) => [
    typeId,
    (value: string) => value,
  ]),
);

// The handle's types live apart so the helpers this file uses (prepared-rows, query-rows) can name
// them without importing this file back; every other file takes them from here.
export type { Database, Executor, Schema } from "./database-types.js";

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
  // null = in memory (tests); `from`: a data directory's tarball (dumpDataDir) to start from (test templates)
  | { kind: "pglite"; dataDir: string | null; from?: Blob }
  | { kind: "postgres"; url: string; poolSize?: number };

/** Advisory lock key that serialises migrations across processes (any fixed bigint). */
const MIGRATION_LOCK_KEY = 7_316_221_043;

const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));

/** A parameter as an SQL literal for EXECUTE (PGlite's EXECUTE takes no bound parameters). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  if (typeof value === "string") return pg.escapeLiteral(value);
  throw new Error(`no SQL literal for a ${typeof value} parameter`);
}

/**
 * PGlite runs one session: a hot read is PREPAREd there once and then EXECUTEd with its values
 * written as literals, so its plan is kept as a named statement's is on PostgreSQL. A statement
 * PREPARE refuses (a parameter whose type it cannot tell) runs as plain SQL.
 */
function pglitePreparedRunner(client: PGlite): PreparedRunner {
  const prepared = new Map<string, boolean>();
  return async (name, text, params, arrays) => {
    const options = { parsers: pgliteTextParsers, ...(arrays ? { rowMode: "array" as const } : {}) };
    let ready = prepared.get(name);
    if (ready === undefined) {
      ready = await client.exec(`PREPARE ${name} AS ${text}`).then(
        () => true,
        () => false,
      );
      if (prepared.size >= 1_000) {
        await client.exec("DEALLOCATE ALL");
        prepared.clear();
      }
      prepared.set(name, ready);
    }
    const result = ready
      ? await client.query(`EXECUTE ${name}(${params.map(literal).join(", ")})`, [], options)
      : await client.query(text, params, options);
    return result.rows;
  };
}

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === "pglite") {
    if (target.dataDir) mkdirSync(target.dataDir, { recursive: true });
    // pg_trgm backs the customer list's text search (created by a migration, loaded here).
    const options = { extensions: { pg_trgm }, ...(target.from ? { loadDataDir: target.from } : {}) };
    const client = target.dataDir ? new PGlite(target.dataDir, options) : new PGlite(options);
    await client.waitReady;
    const db = drizzlePglite(client, { schema: tables });
    // One process owns a PGlite directory: its own commits are the only changes to notice. Its
    // one session gets a commit's notices with the commit's answer, and PGlite hands them to the
    // listener (queued microtasks) before the commit's promise resolves: there is nothing to wait
    // for, and a round trip would queue behind every query in flight.
    const authCache = attachAuthCache(db, async (onNotice) => {
      const stop = await client.listen(AUTH_NOTICE_CHANNEL, onNotice);
      return { stop, sync: () => Promise.resolve() };
    });
    attachPreparedRunner(db, pglitePreparedRunner(client));
    bufferAuditInTransactions(db as unknown as Database);
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
      close: async () => {
        await authCache.close();
        await client.close();
      },
    };
  }
  const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize ?? 10 });
  // An idle client's network error must not crash the process; the pool replaces it.
  pool.on("error", () => undefined);
  const db = drizzleNodePg(pool, { schema: tables });
  const authCache = attachAuthCache(db, async (onNotice, onLost) => {
    // Its own connection, outside the pool: LISTEN holds it for the life of the process.
    const listener = new pg.Client({ connectionString: target.url });
    listener.on("notification", (message) => onNotice(message.payload ?? ""));
    listener.on("error", onLost);
    listener.on("end", onLost);
    await listener.connect();
    await listener.query(`LISTEN ${AUTH_NOTICE_CHANNEL}`);
    return {
      stop: async () => {
        listener.removeAllListeners("end");
        listener.removeAllListeners("error");
        listener.on("error", () => undefined);
        await listener.end().catch(() => undefined);
      },
      // PostgreSQL hands a listener the notices committed before a query ahead of its answer.
      sync: async () => void (await listener.query("select 1")),
    };
  });
  attachPreparedRunner(
    db,
    async (name, text, values, arrays) =>
      (await pool.query({ name, text, values, types: rawTextTypes, ...(arrays ? { rowMode: "array" } : {}) }))
        .rows,
  );
  bufferAuditInTransactions(db as unknown as Database);
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
    close: async () => {
      await authCache.close();
      await pool.end();
    },
  };
}
