import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "./database-types.js";
import { queryRows } from "./query-rows.js";
import { dbBool } from "./row-schemas.js";

const autovacuumRowSchema = z.object({ running: dbBool });

/**
 * Refreshes the planner's statistics of every table (ANALYZE samples, so it stays short on large
 * tables) unless autovacuum does it: PGlite has no autovacuum launcher, and a PostgreSQL server
 * may run with autovacuum off (this machine's does). Called after migrating, after seeding and by
 * the periodic refresh-statistics job. Answers whether it analysed.
 */
export async function refreshStatistics(db: Database): Promise<boolean> {
  const [autovacuum] = await queryRows(
    db,
    sql`select exists (select 1 from pg_stat_activity where backend_type = 'autovacuum launcher') as running`,
    autovacuumRowSchema,
  );
  if (autovacuum?.running) return false;
  await db.execute(sql`analyze`);
  return true;
}
