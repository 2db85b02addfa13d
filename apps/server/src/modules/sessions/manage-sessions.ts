import type { Session } from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import type { AuthContext } from "../../http/auth-context.js";
import { notFound } from "../../http/errors.js";
import { endOtherSessions, endSession, findSession } from "./end-sessions.js";
import { sessionOutput } from "./list-sessions.js";
import { assertMayManageSessionsOf } from "./session-access.js";

/** POST /api/sessions/{id}/end/: ends one session (already ended: answered as it is). */
export async function endSessionById(db: Database, auth: AuthContext, sessionId: number): Promise<Session> {
  return db.transaction(async (tx) => {
    const found = await findSession(tx, sessionId);
    if (!found) throw notFound();
    await assertMayManageSessionsOf(tx, auth.user, { userId: found.userId, clientId: found.clientId });
    const ended = await endSession(tx, sessionId, found.tokenId === auth.tokenId ? "logout" : "ended");
    return sessionOutput(ended ?? found, auth);
  });
}

/** POST /api/sessions/end-others/: "sign out everywhere else". */
export async function endCallersOtherSessions(db: Database, auth: AuthContext): Promise<{ ended: number }> {
  const ended = await db.transaction((tx) =>
    endOtherSessions(tx, auth.user.id, auth.tokenId, "signed_out_elsewhere"),
  );
  return { ended };
}
