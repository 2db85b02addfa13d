import { and, eq, lt, sql } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { rateLimits } from "../../db/tables.js";
import { currentClock } from "../../clock.js";

/** What is counted: "" for account or address means any (a per-address or per-account count). */
export type RateKey = {
  purpose: "login" | "reset" | "reset-password" | "register" | "pay-lookup" | "pay-charge" | "gateway-notify";
  account?: string;
  address?: string;
};
export type Counted = { attempts: number; windowStarted: Date };

// Addresses come from the connection or a trusted proxy's header; the column holds 64 characters.
function row(key: RateKey) {
  return { purpose: key.purpose, account: key.account ?? "", address: (key.address ?? "").slice(0, 64) };
}

function matches(key: RateKey) {
  const { purpose, account, address } = row(key);
  return and(
    eq(rateLimits.purpose, purpose),
    eq(rateLimits.account, account),
    eq(rateLimits.address, address),
  );
}

/**
 * Counts one attempt in a fixed window and returns the count including it. One upsert, so
 * parallel attempts each get their own number and all but the first `limit` see they are over.
 */
export async function countAttempt(
  db: Executor,
  key: RateKey,
  windowMs: number,
  now = currentClock().now(),
): Promise<Counted> {
  // The app's clock, not the database's, so tests can move time and both databases agree.
  const stamp = sql`${now.toISOString()}::timestamptz`;
  const expired = sql`${rateLimits.windowStarted} <= ${new Date(now.getTime() - windowMs).toISOString()}::timestamptz`;
  const [counted] = await db
    .insert(rateLimits)
    .values({ ...row(key), attempts: 1, windowStarted: now })
    .onConflictDoUpdate({
      target: [rateLimits.purpose, rateLimits.account, rateLimits.address],
      set: {
        attempts: sql`case when ${expired} then 1 else ${rateLimits.attempts} + 1 end`,
        windowStarted: sql`case when ${expired} then ${stamp} else ${rateLimits.windowStarted} end`,
      },
    })
    .returning({ attempts: rateLimits.attempts, windowStarted: rateLimits.windowStarted });
  if (!counted) throw new Error("rate limit not counted");
  return { attempts: counted.attempts, windowStarted: new Date(counted.windowStarted) };
}

/** Takes back one counted attempt (one that turned out fine). */
export async function forgiveAttempt(db: Executor, key: RateKey): Promise<void> {
  await db
    .update(rateLimits)
    .set({ attempts: sql`greatest(${rateLimits.attempts} - 1, 0)` })
    .where(matches(key));
}

export async function clearAttempts(db: Executor, key: RateKey): Promise<void> {
  await db.delete(rateLimits).where(matches(key));
}

/** Whole minutes until the window of an over-limit count ends (at least 1). */
export function minutesLeft(counted: Counted, windowMs: number, now = currentClock().now()): number {
  const waitMs = counted.windowStarted.getTime() + windowMs - now.getTime();
  return Math.max(1, Math.ceil(waitMs / 60_000));
}

/** Drops counts whose window ended long ago, so the table stays small. */
export async function pruneRateLimits(db: Executor, now = currentClock().now()): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.windowStarted, new Date(now.getTime() - 24 * 60 * 60_000)));
}
