import { lt } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { revokedTokens } from "../../db/tables.js";
import type { AuthContext } from "../../http/auth-context.js";

/** Revokes the token on the server: it is refused from now on, whoever holds it. */
export async function logOut(db: Database, auth: AuthContext): Promise<{ detail: string }> {
  await db
    .insert(revokedTokens)
    .values({ jti: auth.tokenId, userId: auth.user.id, expiresAt: auth.expiresAt })
    .onConflictDoNothing();
  // Expired tokens are refused anyway; forget their revocations.
  await db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, new Date()));
  return { detail: "Successfully logged out." };
}
