import { createHash } from "node:crypto";
import { fillPlaceholders, sql, type Placeholder, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Executor } from "./database-types.js";
import type { z } from "zod";
import { parseRows, queryRawRows } from "./query-rows.js";

/**
 * Runs one statement of raw SQL by text and parameters. On PostgreSQL the statement is named, so
 * each pooled connection parses and plans a hot read once instead of on every request; the name is
 * the statement's text hashed (a list's filters and ordering give different texts).
 */
export type PreparedRunner = (
  name: string,
  text: string,
  params: unknown[],
  /** Each row as an array of its columns in order, instead of an object by column name. */
  arrays?: boolean,
) => Promise<unknown[]>;

const runners = new WeakMap<object, PreparedRunner>();
const dialect = new PgDialect();
const names = new Map<string, string>();
const MAX_NAMES = 1_000;

/** Called by openDatabase for its handle. */
export function attachPreparedRunner(db: object, runner: PreparedRunner): void {
  runners.set(db, runner);
}

/** Whether this is a database handle (an open transaction is not): only a handle runs kept statements. */
export function hasPreparedRunner(db: object): boolean {
  return runners.has(db);
}

/** A statement's name: the prefix and its text hashed (drizzle's prepare() on a hot read takes it). */
export function preparedName(prefix: string, text: string): string {
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
export async function preparedRows<S extends z.ZodType>(
  db: Executor,
  prefix: string,
  query: SQL,
  row: S,
): Promise<z.output<S>[]> {
  const runner = runners.get(db);
  if (!runner) return parseRows(await queryRawRows(db, query), row);
  const { sql: text, params } = dialect.sqlToQuery(query);
  return parseRows(await runner(preparedName(prefix, text), text, params), row);
}

type Statement = { name: string; text: string; params: unknown[] };
const statements = new Map<string, Statement>();

/**
 * A hot read kept built: `build` makes it once per key with placeholders (sql.placeholder), and each
 * call fills them with `values`. Where the handle has no runner (an open transaction), or `named` is
 * false, it runs unnamed. Each connection keeps its named statements until it closes, so only the
 * common shapes of a read should be named, never one per arbitrary input.
 */
export async function preparedStatementRows<S extends z.ZodType>(
  db: Executor,
  key: string,
  build: () => SQL,
  values: Record<string, unknown>,
  row: S,
  named = true,
): Promise<z.output<S>[]> {
  const runner = named ? runners.get(db) : undefined;
  const statement = keptStatement(key, build);
  const params = fillPlaceholders(statement.params, values);
  if (runner) return parseRows(await runner(statement.name, statement.text, params), row);
  return parseRows(await queryRawRows(db, rawStatement(statement.text, params)), row);
}

/**
 * preparedStatementRows with each row as an array of its columns in order, as drizzle reads a
 * select (so a drizzle select's columns, whose names repeat across joined tables, can be read by
 * position). Only on a database handle (see hasPreparedRunner).
 */
export async function preparedStatementArrays(
  db: Executor,
  key: string,
  build: () => SQL,
  values: Record<string, unknown>,
): Promise<unknown[][]> {
  const runner = runners.get(db);
  if (!runner) throw new Error("preparedStatementArrays needs a database handle, not a transaction");
  const statement = keptStatement(key, build);
  return (await runner(
    statement.name,
    statement.text,
    fillPlaceholders(statement.params, values),
    true,
  )) as unknown[][];
}

function keptStatement(key: string, build: () => SQL): Statement {
  let statement = statements.get(key);
  if (!statement) {
    const { sql: text, params } = dialect.sqlToQuery(build());
    if (statements.size >= MAX_NAMES) statements.clear();
    statement = { name: preparedName(key.split(" ")[0] ?? "statement", text), text, params };
    statements.set(key, statement);
  }
  return statement;
}

/** The statement's text with its parameters, as one drizzle SQL (to run it without naming it). */
function rawStatement(text: string, params: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  return sql.join(
    parts.map((part, index) => (index % 2 === 0 ? sql.raw(part) : sql`${params[Number(part) - 1]}`)),
  );
}

/**
 * A page's LIMIT or OFFSET written into the statement's text instead of bound as a parameter.
 * PostgreSQL reuses one plan for a named statement only when that generic plan costs about what a
 * plan for the given values does; with `LIMIT $n` it must assume a tenth of the rows, so it planned
 * the statement again on every execution (for the transaction list 2 ms, against 0.4 ms to run it).
 * The value is a checked integer, never text from a request. drizzle's limit() and offset() write
 * any SQL object given to them inline; their types name only number and placeholder.
 */
export function inlineCount(value: number): Placeholder {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`Not a row count: ${value}`);
  // A page number far past the end (page=999999999999999&limit=5000) makes an offset beyond 2^53:
  // no table holds that many rows, so the page is the same empty one.
  return sql.raw(String(Math.min(value, Number.MAX_SAFE_INTEGER))) as unknown as Placeholder;
}

/**
 * Whether a page read with its LIMIT and OFFSET inlined should be a named statement. Each pooled
 * connection keeps every statement it has prepared, plan included, until it closes, so only the
 * first five pages of the usual page sizes are named; other pages are planned each time, as any
 * one-off query is (about a millisecond).
 */
export function namesPage(paging: { limit: number; offset: number }): boolean {
  return paging.limit <= 100 && paging.offset <= 4 * paging.limit;
}
