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
      sql`select row_to_json(t)::text as row from ${sql.identifier(name)} t order by 1`,
      z.object({ row: z.string() }),
    );
    snapshot[name] = rows.map((entry) => entry.row);
  }
  return snapshot;
}
