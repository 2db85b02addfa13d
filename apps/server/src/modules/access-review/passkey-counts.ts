import type { Executor } from "../../db/database-types.js";

/**
 * Each user's registered passkeys, by user id, for a page's users at once. Passkeys are being built
 * on another branch (their table does not exist here yet), so everyone has none for now: this is
 * the one place to count them from that table once it lands.
 */
export function passkeyCounts(_db: Executor, userIds: readonly number[]): Promise<Map<number, number>> {
  return Promise.resolve(new Map(userIds.map((id) => [id, 0])));
}
