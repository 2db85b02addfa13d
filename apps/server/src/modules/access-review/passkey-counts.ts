import { count, inArray } from "drizzle-orm";
import type { Executor } from "../../db/database-types.js";
import { userPasskeys } from "../../db/tables.js";

/** Each user's registered passkeys, by user id, for a page's users at once (none: 0). */
export async function passkeyCounts(db: Executor, userIds: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map(userIds.map((id) => [id, 0]));
  if (userIds.length === 0) return counts;
  const rows = await db
    .select({ userId: userPasskeys.userId, passkeys: count() })
    .from(userPasskeys)
    .where(inArray(userPasskeys.userId, [...userIds]))
    .groupBy(userPasskeys.userId);
  for (const row of rows) counts.set(row.userId, Number(row.passkeys));
  return counts;
}
