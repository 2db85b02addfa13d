import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { INVALID_CREDENTIALS_MESSAGE, type LoginAnswer, type loginSchema } from "@cyclebill/domain";
import type { z } from "zod";
import type { Database } from "../../db/database.js";
import { users } from "../../db/tables.js";
import { nonFieldError } from "../../http/errors.js";
import { admitLoginAttempt, loginFailed, type ThrottleLog } from "./login-throttle.js";
import { hashPassword, verifyPassword } from "./passwords.js";
import { isProven } from "../users/create-user.js";
import type { Mailer } from "../mail/mailer.js";
import { resendConfirmation } from "./confirm-registration.js";
import { startSession, type SignInFrom } from "./start-session.js";
import { factorMethods } from "./second-factors.js";
import { secondFactorChallenge } from "./second-factor-sign-in.js";

// Verifying against a real hash for unknown users keeps the answer time the same, so timing tells nothing.
let dummyHash: Promise<string> | undefined;
function unknownUserHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  return dummyHash;
}

/**
 * Username or email and password to a signed access token; attempts are counted for throttling.
 * Only a proven account signs in. An unproven one answers exactly as a wrong password does (so
 * signing in cannot tell whether a registration took the address); when its password was right, the
 * address is sent a fresh confirmation link instead. A user with a second factor gets a challenge
 * for the second step instead of a token (the attempt stays counted until that step passes).
 */
export async function logIn(
  db: Database,
  mailer: Mailer,
  publicUrl: string,
  jwtSecret: string,
  input: z.output<typeof loginSchema>,
  from: SignInFrom,
  log?: ThrottleLog,
): Promise<LoginAnswer> {
  const account = input.username.trim().toLowerCase();
  // Counted before the password is checked, so parallel guesses cannot all slip past the limit.
  await admitLoginAttempt(db, account, from.address, log);
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${account} or lower(${users.email}) = ${account}`)
    // The proven account first; else the address's unattached registration.
    .orderBy(sql`${users.emailVerifiedAt} is null`, sql`${users.clientId} is not null`)
    .limit(1);
  const valid = await verifyPassword(user?.passwordHash ?? (await unknownUserHash()), input.password);
  if (!user || !user.passwordHash || !valid || !user.isActive || !isProven(user)) {
    if (user && valid && user.passwordHash && !isProven(user))
      await resendConfirmation(db, mailer, publicUrl, user);
    await loginFailed(db);
    throw nonFieldError(INVALID_CREDENTIALS_MESSAGE);
  }
  const how = { account, from, rememberMe: input.remember_me };
  const methods = await factorMethods(db, user.id);
  if (methods.length > 0) return secondFactorChallenge(jwtSecret, user.id, how, methods);
  return startSession(db, jwtSecret, user.id, how);
}
