import { and, eq, sql } from "drizzle-orm";
import type { AdminSecondFactor } from "../../config.js";
import type { Database } from "../../db/database.js";
import { clients, userSessions, users } from "../../db/tables.js";
import { authUserOf, type AuthContext } from "../../http/auth-context.js";
import { unauthorized } from "../../http/errors.js";
import { verifyAccessToken } from "./access-token.js";
import { authCacheOf, type CachedUser } from "../../db/auth-cache.js";
import { touchSession } from "../sessions/touch-session.js";
import { mustHaveSecondFactor } from "./second-factor-policy.js";
import { hasFactorSql } from "./second-factors.js";

const INVALID_TOKEN = "Given token not valid for any token type";

/**
 * Resolves a bearer token to an active user; a token whose session is ended (or that has none),
 * expired or forged answers 401. The session's last_seen_at moves at most once a minute. Says
 * whether the user is held at second-factor enrolment (the router lets such a user reach only
 * enrolment, /api/me/ and logout).
 */
export async function authenticate(
  db: Database,
  secret: string,
  authorization: string | undefined,
  adminSecondFactor: AdminSecondFactor = "required",
): Promise<AuthContext> {
  const match = /^(?:Bearer|JWT)\s+(\S+)$/i.exec(authorization?.trim() ?? "");
  if (!match?.[1]) throw unauthorized();
  const token = match[1];
  const cache = authCacheOf(db);
  let claims = cache?.claimsOf(token);
  if (!claims) {
    const verified = await verifyAccessToken(secret, token);
    if (!verified) throw unauthorized(INVALID_TOKEN);
    cache?.rememberClaims(token, verified);
    claims = verified;
  }
  // Kept in memory until the database notices a change to the user or the end of the session (auth-cache.ts).
  let user: (CachedUser & { sessionOpen: boolean; lastSeenAt: Date | null }) | undefined;
  const kept = await cache?.lookup(claims.userId, claims.tokenId);
  if (kept) user = { ...kept, sessionOpen: true, lastSeenAt: null };
  else {
    const mark = cache?.mark() ?? 0;
    // The user, its factors and this token's session, in one round trip.
    const [row] = await db
      .select({
        id: users.id,
        username: users.username,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        isAdmin: users.isAdmin,
        isClientStaff: users.isClientStaff,
        clientId: users.clientId,
        isActive: users.isActive,
        tokensValidAfter: users.tokensValidAfter,
        hasSecondFactor: hasFactorSql(users.id),
        clientRequiresSecondFactor: sql<boolean>`coalesce((select ${clients.requireSecondFactor} from ${clients} where ${clients.id} = ${users.clientId}), false)`,
        sessionId: userSessions.id,
        sessionEndedAt: userSessions.endedAt,
        lastSeenAt: userSessions.lastSeenAt,
      })
      .from(users)
      .leftJoin(
        userSessions,
        and(eq(userSessions.tokenId, claims.tokenId), eq(userSessions.userId, users.id)),
      )
      .where(eq(users.id, claims.userId))
      .limit(1);
    if (row) {
      const { sessionId, sessionEndedAt, ...cached } = row;
      user = { ...cached, sessionOpen: sessionId !== null && sessionEndedAt === null };
      if (user.sessionOpen) {
        const { sessionOpen: _open, lastSeenAt: _seen, ...keep } = user;
        cache?.keep(mark, keep, claims.tokenId);
      }
    }
  }
  if (!user || !user.isActive) throw unauthorized("User is inactive or deleted.");
  // A password reset (tokens_valid_after) ends every session started before it.
  if (user.tokensValidAfter && claims.issuedAt.getTime() < user.tokensValidAfter.getTime()) {
    throw unauthorized(INVALID_TOKEN);
  }
  if (!user.sessionOpen) throw unauthorized(INVALID_TOKEN);
  await touchSession(db, claims.tokenId, user.lastSeenAt ?? undefined);
  return {
    tokenId: claims.tokenId,
    expiresAt: claims.expiresAt,
    user: authUserOf(user),
    secondFactorEnrolmentRequired: !user.hasSecondFactor && mustHaveSecondFactor(user, adminSecondFactor),
  };
}
