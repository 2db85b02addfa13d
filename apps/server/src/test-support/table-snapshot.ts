import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../db/database.js";
import { queryRows } from "../db/query-rows.js";

export type TableSnapshot = Record<string, string[]>;

/** Every row of every table of schema public, as JSON text in a stable order (fuzz tests: nothing written). */
export async function snapshotTables(db: Database): Promise<TableSnapshot> {
  const tables = await queryRows(
    db,
    sql`select table_name::text as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    z.object({ name: z.string() }),
  );
  const snapshot: TableSnapshot = {};
  for (const { name } of tables) {
    const rows = await queryRows(
      db,
      // A session's last_seen_at moves as requests arrive (at most once a minute): a read's
      // bookkeeping, not a write, so a slow run crossing a minute does not count as one.
      sql`select (to_jsonb(t) - 'last_seen_at')::text as row from ${sql.identifier(name)} t order by 1`,
      z.object({ row: z.string() }),
    );
    snapshot[name] = rows.map((entry) => entry.row);
  }
  return snapshot;
}
