import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import type { PasskeyOptions, passkeyAuthenticationResponseSchema } from "@cyclebill/domain";
import type { z } from "zod";
import type { Database } from "../../db/database.js";
import { nonFieldError } from "../../http/errors.js";
import { currentAuditActor, withAuditActor } from "../audit/audit-context.js";
import type { PasskeyConfig } from "./passkey-enrolment.js";
import { transportsOf } from "./passkey-enrolment.js";
import {
  advanceSignCount,
  findPasskey,
  keepChallenge,
  listPasskeys,
  passkeyLabel,
  spendChallenge,
} from "./passkeys.js";
import { relyingPartyOf } from "./relying-party.js";
import { auditSecondFactor } from "./second-factor-audit.js";

type SigningIn = { id: number; email: string; clientId: number | null };

/** Who signs in is the actor of what their sign-in writes (nobody was signed in yet). */
const actorOf = (user: SigningIn) => ({
  ...currentAuditActor(),
  kind: "user" as const,
  userId: user.id,
  label: user.email,
});

/**
 * POST /api/auth-jwt/second-factor/passkey-options/: the options for navigator.credentials.get()
 * naming the user's passkeys, its challenge kept five minutes for this user alone.
 */
export async function passkeySignInOptions(
  db: Database,
  config: PasskeyConfig,
  user: SigningIn,
  origin?: string,
): Promise<PasskeyOptions> {
  const passkeys = await listPasskeys(db, user.id);
  if (passkeys.length === 0) throw nonFieldError("No passkey is set up for this account.");
  const options = await generateAuthenticationOptions({
    rpID: relyingPartyOf(config.publicUrl, origin).rpID,
    allowCredentials: passkeys.map((row) => ({
      id: row.credentialId,
      transports: transportsOf(row.transports),
    })),
    userVerification: "preferred",
  });
  await db.transaction(async (tx) => {
    await keepChallenge(tx, user.id, "sign_in", options.challenge);
    await withAuditActor(actorOf(user), () =>
      auditSecondFactor(tx, user, "second_factor.passkey_options", [["passkey_challenge", null, "sign-in"]]),
    );
  });
  return { options: { ...options } };
}

/**
 * A passkey's answer at sign-in: one of the user's passkeys signed a sign-in challenge of theirs
 * (spent once), and its signature counter moved on (a counter that goes back means a copied
 * authenticator, and is refused). Whether it passed.
 */
export async function spendPasskeyAssertion(
  db: Database,
  config: PasskeyConfig,
  user: SigningIn,
  response: z.output<typeof passkeyAuthenticationResponseSchema>,
  origin?: string,
): Promise<boolean> {
  const row = await findPasskey(db, user.id, response.id);
  if (!row) return false;
  const rp = relyingPartyOf(config.publicUrl, origin);
  let newCounter: number;
  try {
    const verification = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: (challenge) => spendChallenge(db, user.id, "sign_in", challenge),
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpID,
      credential: {
        id: row.credentialId,
        publicKey: isoBase64URL.toBuffer(row.publicKey),
        counter: row.signCount,
        transports: transportsOf(row.transports),
      },
      requireUserVerification: false,
    });
    if (!verification.verified) return false;
    newCounter = verification.authenticationInfo.newCounter;
  } catch {
    return false;
  }
  return db.transaction(async (tx) => {
    if (!(await advanceSignCount(tx, row, newCounter))) return false;
    await withAuditActor(actorOf(user), () =>
      auditSecondFactor(tx, user, "second_factor.use_passkey", [
        ["passkey", passkeyLabel(row), passkeyLabel(row)],
        ["sign_count", String(row.signCount), String(newCounter)],
      ]),
    );
    return true;
  });
}
