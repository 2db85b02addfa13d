import { and, eq, isNull, lt } from "drizzle-orm";
import { currentClock } from "../../clock.js";
import type { Database } from "../../db/database.js";
import { userSessions } from "../../db/tables.js";

/** How stale last_seen_at may get: one write a minute per session, not one per request. */
export const LAST_SEEN_EVERY_MS = 60_000;
/** Bounds memory: past this many sessions the map starts again empty. */
const MAX_ENTRIES = 10_000;

/** Per database handle: when this process last saw each session's last_seen_at written (ms). */
const seenByHandle = new WeakMap<object, Map<string, number>>();

function seenOf(db: object): Map<string, number> {
  let seen = seenByHandle.get(db);
  if (!seen) {
    seen = new Map();
    seenByHandle.set(db, seen);
  }
  return seen;
}

/**
 * Marks a session seen now, writing last_seen_at only when it is a minute old (here, and in the
 * database: another process may have written it meanwhile). `known` is the stored value when the
 * caller has just read it, so the first request after a sign-in writes nothing.
 */
export async function touchSession(db: Database, tokenId: string, known?: Date): Promise<void> {
  const seen = seenOf(db);
  const now = currentClock().now();
  const last = seen.get(tokenId) ?? known?.getTime();
  if (last !== undefined && now.getTime() - last < LAST_SEEN_EVERY_MS) {
    if (!seen.has(tokenId)) remember(seen, tokenId, last);
    return;
  }
  remember(seen, tokenId, now.getTime());
  await db
    .update(userSessions)
    .set({ lastSeenAt: now })
    .where(
      and(
        eq(userSessions.tokenId, tokenId),
        isNull(userSessions.endedAt),
        lt(userSessions.lastSeenAt, new Date(now.getTime() - LAST_SEEN_EVERY_MS)),
      ),
    );
}

function remember(seen: Map<string, number>, tokenId: string, at: number): void {
  if (seen.size >= MAX_ENTRIES) seen.clear();
  seen.set(tokenId, at);
}
