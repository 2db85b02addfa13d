import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { INVALID_CREDENTIALS_MESSAGE, type loginSchema } from "@cyclebill/domain";
import type { z } from "zod";
import type { Database } from "../../db/database.js";
import { users } from "../../db/tables.js";
import { nonFieldError } from "../../http/errors.js";
import {
  ACCESS_TOKEN_LIFETIME_SECONDS,
  REMEMBERED_TOKEN_LIFETIME_SECONDS,
  signAccessToken,
} from "./access-token.js";
import { admitLoginAttempt, loginFailed, loginSucceeded, type ThrottleLog } from "./login-throttle.js";
import { hashPassword, verifyPassword } from "./passwords.js";
import { recordSignIn } from "../users/user-account-changes.js";

// Verifying against a real hash for unknown users keeps the answer time the same, so timing tells nothing.
let dummyHash: Promise<string> | undefined;
function unknownUserHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  return dummyHash;
}

/** Username or email and password to a signed access token; attempts are counted for throttling. */
export async function logIn(
  db: Database,
  jwtSecret: string,
  input: z.output<typeof loginSchema>,
  address: string,
  log?: ThrottleLog,
): Promise<{ token: string }> {
  const account = input.username.trim().toLowerCase();
  // Counted before the password is checked, so parallel guesses cannot all slip past the limit.
  await admitLoginAttempt(db, account, address, log);
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${account} or lower(${users.email}) = ${account}`)
    .limit(1);
  const valid = await verifyPassword(user?.passwordHash ?? (await unknownUserHash()), input.password);
  if (!user || !user.passwordHash || !valid || !user.isActive) {
    await loginFailed(db);
    throw nonFieldError(INVALID_CREDENTIALS_MESSAGE);
  }
  await loginSucceeded(db, account, address);
  await recordSignIn(db, user.id);
  const lifetime = input.remember_me ? REMEMBERED_TOKEN_LIFETIME_SECONDS : ACCESS_TOKEN_LIFETIME_SECONDS;
  return { token: await signAccessToken(jwtSecret, user.id, lifetime) };
}
