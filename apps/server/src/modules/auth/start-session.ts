import type { Database } from "../../db/database.js";
import { recordSignIn } from "../users/user-account-changes.js";
import {
  ACCESS_TOKEN_LIFETIME_SECONDS,
  REMEMBERED_TOKEN_LIFETIME_SECONDS,
  signAccessToken,
} from "./access-token.js";
import { loginSucceeded } from "./login-throttle.js";

/** A sign-in that passed: the throttle forgives, the user's sign-in is counted, a token is signed. */
export async function startSession(
  db: Database,
  jwtSecret: string,
  userId: number,
  how: { account: string; address: string; rememberMe: boolean },
): Promise<{ token: string }> {
  await loginSucceeded(db, how.account, how.address);
  await recordSignIn(db, userId);
  const lifetime = how.rememberMe ? REMEMBERED_TOKEN_LIFETIME_SECONDS : ACCESS_TOKEN_LIFETIME_SECONDS;
  return { token: await signAccessToken(jwtSecret, userId, lifetime) };
}
