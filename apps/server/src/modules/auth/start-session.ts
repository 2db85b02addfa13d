import type { Database } from "../../db/database.js";
import { openSession } from "../sessions/open-session.js";
import { recordSignIn } from "../users/user-account-changes.js";
import {
  ACCESS_TOKEN_LIFETIME_SECONDS,
  REMEMBERED_TOKEN_LIFETIME_SECONDS,
  signAccessTokenWithClaims,
} from "./access-token.js";
import { loginSucceeded } from "./login-throttle.js";
import { userAgentOf } from "../audit/audit-context.js";

/** Where a sign-in comes from: the address the throttles count, and the browser's user agent. */
export type SignInFrom = { address: string; userAgent: string | null };

/** Where a request's sign-in comes from, for the session it opens. */
export function signInFrom(request: {
  ip: string;
  headers: { "user-agent"?: string | string[] };
}): SignInFrom {
  return { address: request.ip, userAgent: userAgentOf(request.headers["user-agent"]) };
}

/**
 * Signs a token and opens its session (a token without one is refused). Sign-in calls it; so do
 * tests and tools that need a signed-in user without the password round.
 */
export async function issueSessionToken(
  db: Database,
  jwtSecret: string,
  userId: number,
  from: SignInFrom,
  lifetimeSeconds = ACCESS_TOKEN_LIFETIME_SECONDS,
): Promise<string> {
  const { token, claims } = await signAccessTokenWithClaims(jwtSecret, userId, lifetimeSeconds);
  await openSession(db, { userId, tokenId: claims.tokenId, expiresAt: claims.expiresAt, ...from });
  return token;
}

/** A sign-in that passed: the throttle forgives, the user's sign-in is counted, a session starts. */
export async function startSession(
  db: Database,
  jwtSecret: string,
  userId: number,
  how: { account: string; from: SignInFrom; rememberMe: boolean },
): Promise<{ token: string }> {
  await loginSucceeded(db, how.account, how.from.address);
  await recordSignIn(db, userId);
  const lifetime = how.rememberMe ? REMEMBERED_TOKEN_LIFETIME_SECONDS : ACCESS_TOKEN_LIFETIME_SECONDS;
  return { token: await issueSessionToken(db, jwtSecret, userId, how.from, lifetime) };
}
