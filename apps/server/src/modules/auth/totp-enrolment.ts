import {
  INVALID_SECOND_FACTOR_CODE_MESSAGE,
  type RecoveryCodes,
  type TotpEnrolment,
} from "@cyclebill/domain";
import QRCode from "qrcode";
import type { Config } from "../../config.js";
import type { Database } from "../../db/database.js";
import type { AuthContext } from "../../http/auth-context.js";
import { fieldError, nonFieldError } from "../../http/errors.js";
import { sealSecret } from "../secrets/secret-box.js";
import { endSessionsForFactorChange } from "./factor-sessions.js";
import { auditSecondFactor } from "./second-factor-audit.js";
import { keepPendingTotp, readTotpFactor, replaceRecoveryCodes, spendTotpCode } from "./second-factors.js";
import { newTotpSecret, totpFor } from "./totp.js";
import { issueSessionToken, type SignInFrom } from "./start-session.js";

export type FactorConfig = Pick<Config, "jwtSecret" | "secretsKey" | "adminSecondFactor" | "publicUrl">;

export const ALREADY_ENROLLED_MESSAGE =
  "An authenticator app is already set up. Remove it first to set up another.";

/**
 * POST /api/me/second-factor/totp/: a new secret, kept sealed and pending until a code from it is
 * typed; the secret, its otpauth:// address and that address as a QR code go to the user once.
 */
export async function startTotpEnrolment(
  db: Database,
  config: FactorConfig,
  auth: AuthContext,
): Promise<TotpEnrolment> {
  const secret = newTotpSecret();
  await db.transaction(async (tx) => {
    const current = await readTotpFactor(tx, auth.user.id);
    if (current?.confirmedAt) throw nonFieldError(ALREADY_ENROLLED_MESSAGE);
    await keepPendingTotp(tx, auth.user.id, sealSecret(config.secretsKey, secret));
    await auditSecondFactor(tx, auth.user, "second_factor.enrol", [
      ["totp", current ? "pending" : null, "pending"],
    ]);
  });
  const uri = totpFor(secret, auth.user.email).toString();
  return { secret, otpauth_uri: uri, qr_code: await QRCode.toDataURL(uri, { margin: 1, width: 220 }) };
}

/**
 * POST /api/me/second-factor/totp/confirm/: a right code confirms the pending app. The ten
 * recovery codes are made and shown once; the user's other sessions end, and the caller gets a
 * fresh token to stay signed in.
 */
export async function confirmTotpEnrolment(
  db: Database,
  config: FactorConfig,
  auth: AuthContext,
  code: string,
  from: SignInFrom,
): Promise<RecoveryCodes> {
  const recoveryCodes = await db.transaction(async (tx) => {
    const current = await readTotpFactor(tx, auth.user.id);
    if (!current) throw nonFieldError("Start setting up an authenticator app first.");
    if (current.confirmedAt) throw nonFieldError(ALREADY_ENROLLED_MESSAGE);
    if (!(await spendTotpCode(tx, config.secretsKey, auth.user.id, code, true)))
      throw fieldError("code", INVALID_SECOND_FACTOR_CODE_MESSAGE);
    const codes = await replaceRecoveryCodes(tx, auth.user.id);
    await auditSecondFactor(tx, auth.user, "second_factor.confirm", [
      ["totp", "pending", "confirmed"],
      ["recovery_codes", null, `${codes.length} new`],
    ]);
    await endSessionsForFactorChange(tx, auth.user.id);
    return codes;
  });
  return {
    recovery_codes: recoveryCodes,
    token: await issueSessionToken(db, config.jwtSecret, auth.user.id, from),
  };
}
