import { SignJWT, jwtVerify } from "jose";
import { eq } from "drizzle-orm";
import {
  EXPIRED_CHALLENGE_MESSAGE,
  INVALID_SECOND_FACTOR_CODE_MESSAGE,
  type PasskeyOptions,
  type SecondFactorChallenge,
  type SecondFactorMethod,
  type secondFactorLoginSchema,
} from "@cyclebill/domain";
import type { z } from "zod";
import type { Database } from "../../db/database.js";
import { users } from "../../db/tables.js";
import { nonFieldError } from "../../http/errors.js";
import { currentAuditActor, withAuditActor } from "../audit/audit-context.js";
import { isProven } from "../users/create-user.js";
import { admitLoginAttempt, loginFailed, type ThrottleLog } from "./login-throttle.js";
import { auditSecondFactor } from "./second-factor-audit.js";
import { spendRecoveryCode, spendTotpCode } from "./second-factors.js";
import { startSession, type SignInFrom } from "./start-session.js";
import type { PasskeyConfig } from "./passkey-enrolment.js";
import { passkeySignInOptions, spendPasskeyAssertion } from "./passkey-sign-in.js";

// Its own issuer: a challenge is never an access token (verifyAccessToken wants issuer "cyclebill").
const CHALLENGE_ISSUER = "cyclebill-second-factor";
const CHALLENGE_LIFETIME_SECONDS = 5 * 60;

type SignInHow = { account: string; rememberMe: boolean };

function key(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** The password was right and the user has a factor: a short-lived signed challenge for the second step. */
export async function secondFactorChallenge(
  jwtSecret: string,
  userId: number,
  how: SignInHow,
  methods: SecondFactorMethod[],
): Promise<SecondFactorChallenge> {
  const challenge = await new SignJWT({ account: how.account, remember_me: how.rememberMe })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(CHALLENGE_ISSUER)
    .setSubject(String(userId))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + CHALLENGE_LIFETIME_SECONDS)
    .sign(key(jwtSecret));
  return { second_factor_required: true, challenge, methods };
}

async function openChallenge(
  jwtSecret: string,
  challenge: string,
): Promise<{ userId: number; account: string; rememberMe: boolean }> {
  try {
    const { payload } = await jwtVerify(challenge, key(jwtSecret), {
      issuer: CHALLENGE_ISSUER,
      algorithms: ["HS256"],
    });
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId) || typeof payload.account !== "string") throw new Error("malformed");
    return { userId, account: payload.account, rememberMe: payload.remember_me === true };
  } catch {
    throw nonFieldError(EXPIRED_CHALLENGE_MESSAGE);
  }
}

/** The user a challenge names, while they may still sign in. */
async function signingInUser(db: Database, userId: number) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user || !user.isActive || !isProven(user)) throw nonFieldError(EXPIRED_CHALLENGE_MESSAGE);
  return user;
}

/** POST /api/auth-jwt/second-factor/passkey-options/: what the browser needs to use a passkey. */
export async function passkeyOptionsForChallenge(
  db: Database,
  config: PasskeyConfig,
  challenge: string,
  origin?: string,
): Promise<PasskeyOptions> {
  const { userId } = await openChallenge(config.jwtSecret, challenge);
  return passkeySignInOptions(db, config, await signingInUser(db, userId), origin);
}

/**
 * POST /api/auth-jwt/second-factor/: the challenge and a code from the app (a step not used before)
 * or a recovery code (once), or a passkey's answer to its options. Counted like a password
 * (login-throttle.ts); the session starts only here.
 */
export async function completeSecondFactor(
  db: Database,
  config: PasskeyConfig,
  input: z.output<typeof secondFactorLoginSchema>,
  from: SignInFrom & { origin?: string },
  log?: ThrottleLog,
): Promise<{ token: string }> {
  const { userId, account, rememberMe } = await openChallenge(config.jwtSecret, input.challenge);
  await admitLoginAttempt(db, account, from.address, log);
  const user = await signingInUser(db, userId);
  // Who signs in is the actor of what their sign-in writes (nobody was signed in yet).
  const actor = { ...currentAuditActor(), kind: "user" as const, userId: user.id, label: user.email };
  let passed = false;
  const { code } = input;
  if (code !== undefined)
    passed = await db.transaction(async (tx) => {
      if (!(await spendTotpCode(tx, config.secretsKey, user.id, code))) return false;
      await withAuditActor(actor, () =>
        auditSecondFactor(tx, user, "second_factor.use_totp", [["totp", "confirmed", "code used"]]),
      );
      return true;
    });
  else if (input.passkey !== undefined)
    passed = await spendPasskeyAssertion(db, config, user, input.passkey, from.origin);
  else if (input.recovery_code !== undefined)
    passed = await db.transaction(async (tx) => {
      if (!(await spendRecoveryCode(tx, user.id, input.recovery_code ?? ""))) return false;
      await withAuditActor(actor, () =>
        auditSecondFactor(tx, user, "second_factor.use_recovery_code", [
          ["recovery_codes", "unused", "one used"],
        ]),
      );
      return true;
    });
  if (!passed) {
    await loginFailed(db);
    throw nonFieldError(INVALID_SECOND_FACTOR_CODE_MESSAGE);
  }
  return startSession(db, config.jwtSecret, user.id, { account, from, rememberMe });
}
