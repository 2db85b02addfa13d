import type { Database } from "../../db/database.js";
import type { AuthContext } from "../../http/auth-context.js";
import { endSessionOfToken } from "../sessions/end-sessions.js";

/** Ends the token's session on the server: the token is refused from now on, whoever holds it. */
export async function logOut(db: Database, auth: AuthContext): Promise<{ detail: string }> {
  await db.transaction((tx) => endSessionOfToken(tx, auth.tokenId));
  return { detail: "Successfully logged out." };
}
