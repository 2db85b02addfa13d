import type { Executor } from "../../db/database-types.js";
import { endUserSessions } from "../users/user-account-changes.js";

/**
 * A second factor confirmed, removed or reset ends the user's other sessions. For now every token
 * issued before now is void (as a password change does); the route hands its caller a fresh one.
 * The one place to point at the session store once it exists.
 */
export async function endSessionsForFactorChange(tx: Executor, userId: number): Promise<void> {
  await endUserSessions(tx, userId, "second factor changed");
}
