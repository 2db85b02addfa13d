import { eq, sql } from "drizzle-orm";
import type { AdminSecondFactor } from "../../config.js";
import type { Database } from "../../db/database.js";
import { clients, revokedTokens, userTotpFactors, users } from "../../db/tables.js";
import { authUserOf, type AuthContext } from "../../http/auth-context.js";
import { unauthorized } from "../../http/errors.js";
import { verifyAccessToken } from "./access-token.js";
import { authCacheOf, type CachedUser } from "../../db/auth-cache.js";
import { mustHaveSecondFactor } from "./second-factor-policy.js";

const INVALID_TOKEN = "Given token not valid for any token type";

/**
 * Resolves a bearer token to an active user; revoked, expired or forged tokens answer 401. Says
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
  // Kept in memory until the database notices a change to the user or a revocation (auth-cache.ts).
  let user: (CachedUser & { revoked: boolean }) | undefined;
  const kept = await cache?.lookup(claims.userId, claims.tokenId);
  if (kept) user = { ...kept, revoked: false };
  else {
    const mark = cache?.mark() ?? 0;
    // The user and whether this token was revoked (logged out), in one round trip.
    [user] = await db
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
        hasSecondFactor: sql<boolean>`exists (select 1 from ${userTotpFactors} where ${userTotpFactors.userId} = ${users.id} and ${userTotpFactors.confirmedAt} is not null)`,
        clientRequiresSecondFactor: sql<boolean>`coalesce((select ${clients.requireSecondFactor} from ${clients} where ${clients.id} = ${users.clientId}), false)`,
        revoked: sql<boolean>`exists (select 1 from ${revokedTokens} where ${revokedTokens.jti} = ${claims.tokenId})`,
      })
      .from(users)
      .where(eq(users.id, claims.userId))
      .limit(1);
    if (user && !user.revoked) {
      const { revoked: _revoked, ...row } = user;
      cache?.keep(mark, row, claims.tokenId);
    }
  }
  if (!user || !user.isActive) throw unauthorized("User is inactive or deleted.");
  // A password change ends every session started before it.
  if (user.tokensValidAfter && claims.issuedAt.getTime() < user.tokensValidAfter.getTime()) {
    throw unauthorized(INVALID_TOKEN);
  }
  if (user.revoked) throw unauthorized(INVALID_TOKEN);
  return {
    tokenId: claims.tokenId,
    expiresAt: claims.expiresAt,
    user: authUserOf(user),
    secondFactorEnrolmentRequired: !user.hasSecondFactor && mustHaveSecondFactor(user, adminSecondFactor),
  };
}
