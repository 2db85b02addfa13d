import { sql } from "drizzle-orm";
import type { Database } from "../db/database.js";

export type TableSnapshot = Record<string, string[]>;

/** Every row of every table of schema public, as JSON text in a stable order (fuzz tests: nothing written). */
export async function snapshotTables(db: Database): Promise<TableSnapshot> {
  const tables = (await db.execute(
    sql`select table_name::text as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  )) as unknown as { rows: { name: string }[] };
  const snapshot: TableSnapshot = {};
  for (const { name } of tables.rows) {
    const rows = (await db.execute(
      sql`select row_to_json(t)::text as row from ${sql.identifier(name)} t order by 1`,
    )) as unknown as { rows: { row: string }[] };
    snapshot[name] = rows.rows.map((entry) => entry.row);
  }
  return snapshot;
}
