import type { PGlite } from "@electric-sql/pglite";
import { sql, type SQL } from "drizzle-orm";
import type PgBoss from "pg-boss";
import type { Executor } from "../db/database.js";
import { queryRawRows } from "../db/query-rows.js";

/**
 * pg-boss's `db` option over the PGlite instance Drizzle uses. pg-boss sends its schema
 * migration and its locked maintenance as one multi-statement string without parameters,
 * which PGlite's query() (a prepared statement) refuses: those go through exec(), answering
 * the last statement's rows; everything with parameters goes through query(). PGlite runs one
 * statement or transaction at a time, so pg-boss and Drizzle never interleave inside a transaction.
 */
export function pgliteJobDb(client: PGlite): PgBoss.Db {
  return {
    executeSql: async (text: string, values?: unknown[]) => {
      if (!values || values.length === 0) {
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      }
      const result = await client.query(text, values);
      return { rows: result.rows };
    },
  };
}

/**
 * pg-boss's `db` option over an open Drizzle transaction (either driver), so that jobs are
 * enqueued atomically with our own writes: a run and its first job, a plan and its chunks.
 * Only for statements whose parameters are scalars (pg-boss's insert).
 */
export function transactionJobDb(executor: Executor): PgBoss.Db {
  return {
    executeSql: async (text: string, values: unknown[] = []) => ({
      // pg-boss reads its own rows: they go back to it as the driver gave them.
      rows: await queryRawRows(executor, positionalSql(text, values)),
    }),
  };
}

/** `$1`-style SQL text and its values as a Drizzle SQL object. */
function positionalSql(text: string, values: readonly unknown[]): SQL {
  const parts: SQL[] = [];
  let last = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    parts.push(sql.raw(text.slice(last, match.index)));
    parts.push(sql`${sql.param(values[Number(match[1]) - 1])}`);
    last = match.index + match[0].length;
  }
  parts.push(sql.raw(text.slice(last)));
  return sql.join(parts);
}
