import { eq } from "drizzle-orm";
import { INVALID_SECOND_FACTOR_CODE_MESSAGE, type RecoveryCodes } from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { users } from "../../db/tables.js";
import type { AuthContext } from "../../http/auth-context.js";
import { fieldError, nonFieldError, notFound } from "../../http/errors.js";
import { endSessionsForFactorChange } from "./factor-sessions.js";
import { admitLoginAttempt, loginFailed } from "./login-throttle.js";
import { verifyPassword } from "./passwords.js";
import { auditSecondFactor } from "./second-factor-audit.js";
import { countPasskeys, deletePasskey, deletePasskeys, listPasskeys, passkeyLabel } from "./passkeys.js";
import {
  deleteSecondFactors,
  factorCount,
  readTotpFactor,
  replaceRecoveryCodes,
  spendTotpCode,
  userMustHaveFactor,
} from "./second-factors.js";
import type { FactorConfig } from "./totp-enrolment.js";
import { issueSessionToken, type SignInFrom } from "./start-session.js";

export const LAST_FACTOR_MESSAGE =
  "Your account must keep a second factor, so this one cannot be removed. A provider admin can reset it if it is lost.";
const WRONG_PASSWORD_MESSAGE = "That password is not right.";

/**
 * The user proves it is them once more: a code from their app, or their password. Counted like a
 * sign-in (login-throttle.ts), so a stolen session cannot guess either.
 */
export async function proveItIsThem(
  db: Database,
  config: FactorConfig,
  auth: AuthContext,
  address: string,
  proof: { code?: string; password?: string },
): Promise<void> {
  const account = auth.user.email.toLowerCase();
  await admitLoginAttempt(db, account, address);
  if (proof.code !== undefined) {
    if (await spendTotpCode(db, config.secretsKey, auth.user.id, proof.code)) return;
    await loginFailed(db);
    throw fieldError("code", INVALID_SECOND_FACTOR_CODE_MESSAGE);
  }
  const [row] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, auth.user.id))
    .limit(1);
  if (row?.passwordHash && proof.password && (await verifyPassword(row.passwordHash, proof.password))) return;
  await loginFailed(db);
  throw fieldError("password", WRONG_PASSWORD_MESSAGE);
}

/**
 * DELETE /api/me/second-factor/totp/: with the password or a code. Refused when the user must keep
 * a factor and this is their last one (no passkey is left). Other sessions end; the caller gets a fresh token.
 */
export async function removeTotp(
  db: Database,
  config: FactorConfig,
  auth: AuthContext,
  input: { code?: string; password?: string },
  from: SignInFrom,
): Promise<{ token: string }> {
  const factor = await readTotpFactor(db, auth.user.id);
  if (!factor) throw notFound();
  if (
    factor.confirmedAt &&
    (await countPasskeys(db, auth.user.id)) === 0 &&
    (await userMustHaveFactor(db, auth, config.adminSecondFactor))
  )
    throw nonFieldError(LAST_FACTOR_MESSAGE);
  // A pending enrolment needs no proof beyond the session: it never guarded anything.
  if (factor.confirmedAt) await proveItIsThem(db, config, auth, from.address, input);
  await db.transaction(async (tx) => {
    const hadFactor = await deleteSecondFactors(tx, auth.user.id);
    await auditSecondFactor(tx, auth.user, "second_factor.remove", [
      ["totp", hadFactor ? "confirmed" : "pending", null],
      ...(hadFactor ? [["recovery_codes", "set", null] as [string, string, null]] : []),
    ]);
    if (hadFactor) await endSessionsForFactorChange(tx, auth.user.id);
  });
  return { token: await issueSessionToken(db, config.jwtSecret, auth.user.id, from) };
}

/**
 * DELETE /api/me/second-factor/passkeys/{id}/: with the password or a code from the app. Refused
 * when the user must keep a factor and this is their last one. Other sessions end; the caller gets
 * a fresh token.
 */
export async function removePasskey(
  db: Database,
  config: FactorConfig,
  auth: AuthContext,
  id: number,
  input: { code?: string; password?: string },
  from: SignInFrom,
): Promise<{ token: string }> {
  const target = (await listPasskeys(db, auth.user.id)).find((row) => row.id === id);
  if (!target) throw notFound();
  if (
    (await factorCount(db, auth.user.id)) === 1 &&
    (await userMustHaveFactor(db, auth, config.adminSecondFactor))
  )
    throw nonFieldError(LAST_FACTOR_MESSAGE);
  await proveItIsThem(db, config, auth, from.address, input);
  await db.transaction(async (tx) => {
    const removed = await deletePasskey(tx, auth.user.id, id);
    if (!removed) throw notFound();
    await auditSecondFactor(tx, auth.user, "second_factor.passkey_remove", [
      ["passkey", passkeyLabel(removed), null],
    ]);
    await endSessionsForFactorChange(tx, auth.user.id);
  });
  return { token: await issueSessionToken(db, config.jwtSecret, auth.user.id, from) };
}

/** POST /api/me/second-factor/recovery-codes/: ten new codes (a code from the app proves it). */
export async function regenerateRecoveryCodes(
  db: Database,
  config: FactorConfig,
  auth: AuthContext,
  code: string,
  address: string,
): Promise<RecoveryCodes> {
  const factor = await readTotpFactor(db, auth.user.id);
  if (!factor?.confirmedAt) throw nonFieldError("Set up an authenticator app first.");
  await proveItIsThem(db, config, auth, address, { code });
  const codes = await db.transaction(async (tx) => {
    const fresh = await replaceRecoveryCodes(tx, auth.user.id);
    await auditSecondFactor(tx, auth.user, "second_factor.recovery_codes", [
      ["recovery_codes", "set", `${fresh.length} new`],
    ]);
    return fresh;
  });
  return { recovery_codes: codes };
}

/**
 * POST /api/users/{id}/second-factor/reset/ (provider admins): a user who lost their factor has it
 * removed (the app, its recovery codes and every passkey), with why, and their sessions end; they set up a new one at their next sign-in.
 */
export async function resetSecondFactor(
  db: Database,
  userId: number,
  reason: string,
): Promise<{ detail: string }> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, clientId: users.clientId })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (!user) throw notFound();
    const hadTotp = await deleteSecondFactors(tx, user.id);
    const passkeys = await deletePasskeys(tx, user.id);
    const hadFactor = hadTotp || passkeys > 0;
    await auditSecondFactor(
      tx,
      user,
      "second_factor.reset",
      [
        ["totp", hadTotp ? "confirmed" : null, null],
        ["recovery_codes", hadTotp ? "set" : null, null],
        ["passkeys", passkeys > 0 ? String(passkeys) : null, null],
      ],
      reason,
    );
    await endSessionsForFactorChange(tx, user.id);
    return {
      detail: hadFactor
        ? "The user's second factor was removed; they set up a new one at their next sign-in."
        : "The user had no second factor; their sessions were ended.",
    };
  });
}
