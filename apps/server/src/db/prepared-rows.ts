import { createHash } from "node:crypto";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Executor } from "./database.js";
import { queryRows } from "./query-rows.js";

/**
 * Runs one statement of raw SQL by text and parameters. On PostgreSQL the statement is named, so
 * each pooled connection parses and plans a hot read once instead of on every request; the name is
 * the statement's text hashed (a list's filters and ordering give different texts).
 */
export type PreparedRunner = (name: string, text: string, params: unknown[]) => Promise<unknown[]>;

const runners = new WeakMap<object, PreparedRunner>();
const dialect = new PgDialect();
const names = new Map<string, string>();
const MAX_NAMES = 1_000;

/** Called by openDatabase for its handle. */
export function attachPreparedRunner(db: object, runner: PreparedRunner): void {
  runners.set(db, runner);
}

function statementName(prefix: string, text: string): string {
  let name = names.get(text);
  if (!name) {
    if (names.size >= MAX_NAMES) names.clear();
    name = `${prefix}_${createHash("sha1").update(text).digest("hex").slice(0, 16)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * The rows of a hot read, as a named prepared statement where the handle has a runner (an open
 * transaction has none: it runs as plain SQL). Dates and timestamps come back as text, as drizzle
 * reads them.
 */
export async function preparedRows<T>(db: Executor, prefix: string, query: SQL): Promise<T[]> {
  const runner = runners.get(db);
  if (!runner) return queryRows<T>(db, query);
  const { sql: text, params } = dialect.sqlToQuery(query);
  return (await runner(statementName(prefix, text), text, params)) as T[];
}
