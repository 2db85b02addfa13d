import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Session } from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { userSessions } from "../../db/tables.js";
import type { AuthContext } from "../../http/auth-context.js";
import { isOpen, type SessionRow } from "./end-sessions.js";
import { assertMayManageSessionsOf } from "./session-access.js";

/** Enough for any one person; older ones are history. */
const LISTED = 100;

export function sessionOutput(row: SessionRow, auth: AuthContext): Session {
  return {
    id: row.id,
    user_id: row.userId,
    device: row.device || "Unknown device",
    user_agent: row.userAgent,
    address: row.address,
    started_at: row.startedAt.toISOString(),
    last_seen_at: row.lastSeenAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    ended_at: row.endedAt?.toISOString() ?? null,
    end_reason: row.endReason,
    active: isOpen(row),
    current: row.tokenId === auth.tokenId,
  };
}

/** GET /api/sessions/: the caller's sessions, or user_id's (see session-access.ts); open ones first. */
export async function listSessions(
  db: Database,
  auth: AuthContext,
  userId: number | undefined,
): Promise<{ count: number; results: Session[] }> {
  const target = userId ?? auth.user.id;
  await assertMayManageSessionsOf(db, auth.user, { userId: target });
  const openFirst = sql`case when ${and(isNull(userSessions.endedAt), gt(userSessions.expiresAt, new Date()))} then 0 else 1 end`;
  const rows = await db
    .select()
    .from(userSessions)
    .where(eq(userSessions.userId, target))
    .orderBy(openFirst, desc(userSessions.lastSeenAt), desc(userSessions.id))
    .limit(LISTED);
  const results = rows.map((row) => sessionOutput(row, auth));
  return { count: results.length, results };
}
