import type { Executor } from "../../db/database-types.js";
import { endAllSessions } from "../sessions/end-sessions.js";

/**
 * A second factor confirmed, removed or reset ends every session of the user, the one that made
 * the change included; a route that answers its caller hands over a fresh session's token.
 */
export async function endSessionsForFactorChange(tx: Executor, userId: number): Promise<void> {
  await endAllSessions(tx, userId, "factor_changed");
}
