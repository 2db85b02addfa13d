import { eq } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { revokedTokens, users } from "../../db/tables.js";
import type { AuthContext } from "../../http/auth-context.js";
import { unauthorized } from "../../http/errors.js";
import { verifyAccessToken } from "./access-token.js";

const INVALID_TOKEN = "Given token not valid for any token type";

/** Resolves a bearer token to an active user; revoked, expired or forged tokens answer 401. */
export async function authenticate(
  db: Database,
  secret: string,
  authorization: string | undefined,
): Promise<AuthContext> {
  const match = /^(?:Bearer|JWT)\s+(\S+)$/i.exec(authorization?.trim() ?? "");
  if (!match?.[1]) throw unauthorized();
  const claims = await verifyAccessToken(secret, match[1]);
  if (!claims) throw unauthorized(INVALID_TOKEN);
  const [user] = await db.select().from(users).where(eq(users.id, claims.userId)).limit(1);
  if (!user || !user.isActive) throw unauthorized("User is inactive or deleted.");
  // A password change ends every session started before it.
  if (user.tokensValidAfter && claims.issuedAt.getTime() < user.tokensValidAfter.getTime()) {
    throw unauthorized(INVALID_TOKEN);
  }
  const [revoked] = await db
    .select({ jti: revokedTokens.jti })
    .from(revokedTokens)
    .where(eq(revokedTokens.jti, claims.tokenId))
    .limit(1);
  if (revoked) throw unauthorized(INVALID_TOKEN);
  return {
    tokenId: claims.tokenId,
    expiresAt: claims.expiresAt,
    user: {
      id: user.id,
      username: user.username,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      isAdmin: user.isAdmin,
      isClientStaff: user.isClientStaff,
      clientId: user.clientId,
    },
  };
}
