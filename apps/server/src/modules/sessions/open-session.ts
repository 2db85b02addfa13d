import { lt } from "drizzle-orm";
import { currentClock } from "../../clock.js";
import type { Executor } from "../../db/database.js";
import { userSessions } from "../../db/tables.js";
import { deviceLabel } from "./device-label.js";

/** Ended or expired sessions stay listed this long, then are removed at a later sign-in. */
const KEPT_AFTER_EXPIRY_MS = 30 * 24 * 60 * 60_000;

export type NewSession = {
  userId: number;
  tokenId: string;
  expiresAt: Date;
  address: string;
  userAgent: string | null;
};

/** A sign-in's session: its token is accepted while the session is open. */
export async function openSession(db: Executor, session: NewSession): Promise<void> {
  const now = currentClock().now();
  await db.insert(userSessions).values({
    userId: session.userId,
    tokenId: session.tokenId,
    userAgent: session.userAgent?.slice(0, 512) ?? null,
    device: deviceLabel(session.userAgent),
    address: session.address.slice(0, 64),
    startedAt: now,
    lastSeenAt: now,
    expiresAt: session.expiresAt,
  });
  // Long-expired sessions are history nobody lists any more.
  await db
    .delete(userSessions)
    .where(lt(userSessions.expiresAt, new Date(Date.now() - KEPT_AFTER_EXPIRY_MS)));
}
