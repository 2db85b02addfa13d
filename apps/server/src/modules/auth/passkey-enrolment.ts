import { createHmac } from "node:crypto";
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import type { PasskeyEnrolled, PasskeyOptions, passkeyEnrolSchema } from "@cyclebill/domain";
import type { z } from "zod";
import type { Database } from "../../db/database.js";
import type { AuthContext } from "../../http/auth-context.js";
import { fieldError, nonFieldError } from "../../http/errors.js";
import { endSessionsForFactorChange } from "./factor-sessions.js";
import {
  insertPasskey,
  keepChallenge,
  listPasskeys,
  passkeyLabel,
  passkeyOut,
  spendChallenge,
} from "./passkeys.js";
import { RELYING_PARTY_NAME, relyingPartyOf } from "./relying-party.js";
import { auditSecondFactor } from "./second-factor-audit.js";
import { issueSessionToken, type SignInFrom } from "./start-session.js";
import type { FactorConfig } from "./totp-enrolment.js";

/** The app and passkeys share what they need (publicUrl names the relying party). */
export type PasskeyConfig = FactorConfig;

/** Enough for a phone, a laptop and a few security keys; more is a sign of something wrong. */
export const MAX_PASSKEYS = 10;
export const PASSKEY_NOT_ACCEPTED_MESSAGE =
  "The passkey's answer was not accepted (it may have taken too long). Try again.";

export function transportsOf(stored: string): AuthenticatorTransport[] {
  return stored ? (stored.split(",") as AuthenticatorTransport[]) : [];
}

/** A stable, opaque user handle: the same for every passkey of the user, naming nothing about them. */
function userHandle(jwtSecret: string, userId: number): Uint8Array<ArrayBuffer> {
  const digest = createHmac("sha256", jwtSecret).update(`passkey-user:${userId}`).digest();
  return new Uint8Array(digest.subarray(0, 16));
}

/**
 * POST /api/me/second-factor/passkeys/options/: the options for navigator.credentials.create(),
 * its challenge kept five minutes (the user's passkeys are excluded, so one is not added twice).
 */
export async function startPasskeyEnrolment(
  db: Database,
  config: PasskeyConfig,
  auth: AuthContext,
  origin?: string,
): Promise<PasskeyOptions> {
  const existing = await listPasskeys(db, auth.user.id);
  if (existing.length >= MAX_PASSKEYS)
    throw nonFieldError(`You have ${MAX_PASSKEYS} passkeys. Remove one to add another.`);
  const { user } = auth;
  const options = await generateRegistrationOptions({
    rpName: RELYING_PARTY_NAME,
    rpID: relyingPartyOf(config.publicUrl, origin).rpID,
    userName: user.email,
    userDisplayName: `${user.firstName} ${user.lastName}`.trim() || user.email,
    userID: userHandle(config.jwtSecret, user.id),
    attestationType: "none",
    excludeCredentials: existing.map((row) => ({
      id: row.credentialId,
      transports: transportsOf(row.transports),
    })),
    // A second factor after the password: user verification is welcome, not needed.
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  await db.transaction(async (tx) => {
    await keepChallenge(tx, user.id, "register", options.challenge);
    await auditSecondFactor(tx, user, "second_factor.passkey_options", [
      ["passkey_challenge", null, "enrolment"],
    ]);
  });
  return { options: { ...options } };
}

/**
 * POST /api/me/second-factor/passkeys/: the browser's answer to a challenge of this user (spent
 * once) is checked and the passkey kept under the name given. The user's other sessions end; the
 * caller gets a fresh token.
 */
export async function finishPasskeyEnrolment(
  db: Database,
  config: PasskeyConfig,
  auth: AuthContext,
  input: z.output<typeof passkeyEnrolSchema>,
  from: SignInFrom,
  origin?: string,
): Promise<PasskeyEnrolled> {
  const rp = relyingPartyOf(config.publicUrl, origin);
  let credential;
  try {
    const verification = await verifyRegistrationResponse({
      // The schema checked its shape; the library reads the transports' names as they come.
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: (challenge) => spendChallenge(db, auth.user.id, "register", challenge),
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpID,
      requireUserVerification: false,
    });
    if (!verification.verified) throw new Error("not verified");
    credential = verification.registrationInfo.credential;
  } catch {
    throw fieldError("response", PASSKEY_NOT_ACCEPTED_MESSAGE);
  }
  const kept = await db.transaction(async (tx) => {
    const mine = await listPasskeys(tx, auth.user.id);
    if (mine.some((row) => row.credentialId === credential.id))
      throw nonFieldError("This passkey is already set up.");
    const row = await insertPasskey(tx, {
      userId: auth.user.id,
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      signCount: credential.counter,
      transports: (credential.transports ?? []).join(","),
      name: input.name,
    });
    await auditSecondFactor(tx, auth.user, "second_factor.passkey_enrol", [
      ["passkey", null, passkeyLabel(row)],
    ]);
    await endSessionsForFactorChange(tx, auth.user.id);
    return row;
  });
  return {
    passkey: passkeyOut(kept),
    token: await issueSessionToken(db, config.jwtSecret, auth.user.id, from),
  };
}
