import type { SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Executor } from "./database-types.js";

/** A raw query's rows as the driver hands them over, before they are parsed. */
export async function queryRawRows(db: Executor, query: SQL): Promise<unknown[]> {
  const result = (await db.execute(query)) as unknown as { rows: unknown[] };
  return result.rows;
}

/**
 * Runs raw SQL and parses each row with `row` (db/row-schemas.ts has the column kinds), so a
 * column the query no longer returns, or returns in another form on one driver, fails here by
 * name instead of flowing on as a wrong type. PGlite and node-postgres both answer `{ rows }`.
 */
export async function queryRows<S extends z.ZodType>(
  db: Executor,
  query: SQL,
  row: S,
): Promise<z.output<S>[]> {
  return parseRows(await queryRawRows(db, query), row);
}

/** Parses rows already fetched (prepared statements, arrays of rows from a runner). */
export function parseRows<S extends z.ZodType>(rows: unknown[], row: S): z.output<S>[] {
  return rows.map((value) => row.parse(value));
}
