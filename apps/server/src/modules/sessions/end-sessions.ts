import { and, eq, gt, isNull, ne, type SQL } from "drizzle-orm";
import { currentClock } from "../../clock.js";
import type { Executor } from "../../db/database.js";
import { users, userSessions, type SessionEndReason } from "../../db/tables.js";
import { currentAuditActor } from "../audit/audit-context.js";
import { recordAudit } from "../audit/record-audit.js";

export type SessionRow = typeof userSessions.$inferSelect;

/** An open session: not ended, not expired (token expiry runs on real time, as the JWT's does). */
function open(): SQL {
  return and(isNull(userSessions.endedAt), gt(userSessions.expiresAt, new Date())) as SQL;
}

/** Ends the matching open sessions; whoever acts (the audit actor) is recorded as ending them. */
async function endWhere(tx: Executor, where: SQL, reason: SessionEndReason): Promise<SessionRow[]> {
  return tx
    .update(userSessions)
    .set({ endedAt: currentClock().now(), endedByUserId: currentAuditActor().userId, endReason: reason })
    .where(and(where, open()))
    .returning();
}

/** How an ended session reads in the trail: its id, device and address (never its token id). */
function sessionLabel(row: SessionRow): string {
  return `session ${row.id}: ${row.device || "Unknown device"}, ${row.address || "unknown address"}`;
}

/**
 * One trail row per act, on the user whose sessions ended (in their client's chain, so their
 * History shows it); the actor says who ended them and from where.
 */
async function auditEnded(
  tx: Executor,
  action: string,
  userId: number,
  rows: readonly SessionRow[],
  reason: SessionEndReason,
): Promise<void> {
  if (rows.length === 0) return;
  const [user] = await tx.select({ clientId: users.clientId }).from(users).where(eq(users.id, userId));
  await recordAudit(tx, {
    clientId: user?.clientId ?? null,
    action,
    recordKind: "user",
    recordId: userId,
    changes: rows.map((row) => ["session", sessionLabel(row), null]),
    reason,
  });
}

/** Ends one session by id (the caller checked who may); undefined when it was not open. */
export async function endSession(
  tx: Executor,
  sessionId: number,
  reason: SessionEndReason,
): Promise<SessionRow | undefined> {
  const [row] = await endWhere(tx, eq(userSessions.id, sessionId), reason);
  if (row) await auditEnded(tx, "session.end", row.userId, [row], reason);
  return row;
}

/** Logout: the session of this token ends. */
export async function endSessionOfToken(tx: Executor, tokenId: string): Promise<void> {
  const [row] = await endWhere(tx, eq(userSessions.tokenId, tokenId), "logout");
  if (row) await auditEnded(tx, "session.end", row.userId, [row], "logout");
}

/**
 * Ends every open session of the user but the one of keepTokenId ("sign out everywhere else"; a
 * password or second factor changed). Call it inside the transaction of the change, so both commit
 * together. Returns how many ended.
 */
export async function endOtherSessions(
  tx: Executor,
  userId: number,
  keepTokenId: string,
  reason: SessionEndReason,
): Promise<number> {
  const rows = await endWhere(
    tx,
    and(eq(userSessions.userId, userId), ne(userSessions.tokenId, keepTokenId)) as SQL,
    reason,
  );
  await auditEnded(tx, "session.end_others", userId, rows, reason);
  return rows.length;
}

/** Ends every open session of the user (a password reset: whoever had the old password is out). */
export async function endAllSessions(
  tx: Executor,
  userId: number,
  reason: SessionEndReason,
): Promise<number> {
  const rows = await endWhere(tx, eq(userSessions.userId, userId), reason);
  await auditEnded(tx, "session.end_all", userId, rows, reason);
  return rows.length;
}

/** A session by id, open or not, with its user's client: what authorisation looks at. */
export async function findSession(
  db: Executor,
  sessionId: number,
): Promise<(SessionRow & { clientId: number | null }) | undefined> {
  const [row] = await db
    .select({ session: userSessions, clientId: users.clientId })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .where(eq(userSessions.id, sessionId))
    .limit(1);
  return row ? { ...row.session, clientId: row.clientId } : undefined;
}

/** Whether the session is open now (the same test as ending uses). */
export function isOpen(row: Pick<SessionRow, "endedAt" | "expiresAt">): boolean {
  return row.endedAt === null && row.expiresAt.getTime() > Date.now();
}
