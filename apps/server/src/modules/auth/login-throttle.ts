import { and, count, eq, gte, lt, min, or } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { loginFailures } from "../../db/tables.js";
import { HttpError } from "../../http/errors.js";
import { currentClock } from "../../clock.js";

export const MAX_FAILURES = 10;
export const WINDOW_MINUTES = 15;

/** Refuses a login with 429 while an account or an address has 10 failures in the last 15 minutes. */
export async function assertNotThrottled(
  db: Executor,
  account: string,
  address: string,
  now = currentClock().now(),
): Promise<void> {
  const windowStart = new Date(now.getTime() - WINDOW_MINUTES * 60_000);
  for (const condition of [eq(loginFailures.account, account), eq(loginFailures.address, address)]) {
    const [row] = await db
      .select({ failures: count(), oldest: min(loginFailures.createdAt) })
      .from(loginFailures)
      .where(and(condition, gte(loginFailures.createdAt, windowStart)));
    if (row && row.failures >= MAX_FAILURES && row.oldest) {
      const waitMs = new Date(row.oldest).getTime() + WINDOW_MINUTES * 60_000 - now.getTime();
      const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
      throw new HttpError(429, {
        detail: `Too many failed login attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      });
    }
  }
}

export async function recordLoginFailure(
  db: Executor,
  account: string,
  address: string,
  now = currentClock().now(),
): Promise<void> {
  // Stamped by the app's clock, the one the window above is measured with (not the database's).
  await db.insert(loginFailures).values({ account, address, createdAt: now });
  // Old failures no longer count; drop them so the table stays small.
  const expired = new Date(now.getTime() - 24 * 60 * 60_000);
  await db.delete(loginFailures).where(or(lt(loginFailures.createdAt, expired)));
}
