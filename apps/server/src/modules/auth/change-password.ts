import { eq } from "drizzle-orm";
import {
  SAME_PASSWORD_MESSAGE,
  WRONG_CURRENT_PASSWORD_MESSAGE,
  type changePasswordSchema,
} from "@cyclebill/domain";
import type { z } from "zod";
import type { Database } from "../../db/database.js";
import { users } from "../../db/tables.js";
import type { AuthContext } from "../../http/auth-context.js";
import { fieldError, unauthorized } from "../../http/errors.js";
import { endOtherSessions } from "../sessions/end-sessions.js";
import { changeOwnPasswordHash } from "../users/user-account-changes.js";
import { assertAcceptablePassword } from "./common-passwords.js";
import { admitLoginAttempt, loginFailed, loginSucceeded, type ThrottleLog } from "./login-throttle.js";
import { hashPassword, verifyPassword } from "./passwords.js";

/**
 * POST /api/me/password/: the signed-in user's new password, proven by the current one. The check
 * is counted as a sign-in's (a stolen session must not become a way to guess the password). Every
 * other session of the user ends; the one asking keeps working.
 */
export async function changePassword(
  db: Database,
  auth: AuthContext,
  input: z.output<typeof changePasswordSchema>,
  address: string,
  log?: ThrottleLog,
): Promise<{ success: true; ended_sessions: number }> {
  const account = auth.user.email.trim().toLowerCase();
  await admitLoginAttempt(db, account, address, log);
  const [user] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, auth.user.id))
    .limit(1);
  if (!user) throw unauthorized("User is inactive or deleted.");
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.current_password))) {
    await loginFailed(db);
    throw fieldError("current_password", WRONG_CURRENT_PASSWORD_MESSAGE);
  }
  await loginSucceeded(db, account, address);
  if (input.new_password === input.current_password) throw fieldError("new_password", SAME_PASSWORD_MESSAGE);
  assertAcceptablePassword("new_password", input.new_password);
  const passwordHash = await hashPassword(input.new_password);
  const ended = await db.transaction(async (tx) => {
    await changeOwnPasswordHash(tx, auth.user.id, passwordHash);
    return endOtherSessions(tx, auth.user.id, auth.tokenId, "password_changed");
  });
  return { success: true, ended_sessions: ended };
}
