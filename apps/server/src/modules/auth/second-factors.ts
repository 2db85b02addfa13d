import { and, count, eq, isNotNull, isNull, lt, or, sql, type SQLWrapper } from "drizzle-orm";
import type { SecondFactorMethod, SecondFactorStatus } from "@cyclebill/domain";
import type { AdminSecondFactor } from "../../config.js";
import type { Executor } from "../../db/database-types.js";
import { clients, userPasskeys, userRecoveryCodes, userTotpFactors } from "../../db/tables.js";
import type { AuthContext } from "../../http/auth-context.js";
import { openSecret } from "../secrets/secret-box.js";
import { countPasskeys, listPasskeys, passkeyOut } from "./passkeys.js";
import { mustHaveSecondFactor } from "./second-factor-policy.js";
import { matchingTotpStep, newRecoveryCodes, recoveryCodeHash } from "./totp.js";

// The auth module owns user_totp_factors and user_recovery_codes: every read and write of a
// user's second factors goes through here.

export type TotpFactorRow = typeof userTotpFactors.$inferSelect;

export async function readTotpFactor(db: Executor, userId: number): Promise<TotpFactorRow | undefined> {
  const [row] = await db.select().from(userTotpFactors).where(eq(userTotpFactors.userId, userId)).limit(1);
  return row;
}

/** The ways the user can pass the second step: none when they have no factor. */
export async function factorMethods(db: Executor, userId: number): Promise<SecondFactorMethod[]> {
  const row = await readTotpFactor(db, userId);
  const methods: SecondFactorMethod[] = row?.confirmedAt ? ["totp", "recovery_code"] : [];
  if ((await countPasskeys(db, userId)) > 0) methods.push("passkey");
  return methods;
}

/** How many factors the user has: a confirmed app counts once, each passkey once. */
export async function factorCount(db: Executor, userId: number): Promise<number> {
  const row = await readTotpFactor(db, userId);
  return (row?.confirmedAt ? 1 : 0) + (await countPasskeys(db, userId));
}

/** SQL: whether the user (users.id of the query) has any factor; read with the user on every request. */
export const hasFactorSql = (userId: SQLWrapper) =>
  sql<boolean>`(exists (select 1 from ${userTotpFactors} where ${userTotpFactors.userId} = ${userId} and ${userTotpFactors.confirmedAt} is not null) or exists (select 1 from ${userPasskeys} where ${userPasskeys.userId} = ${userId}))`;

/** Whether the user's client requires a second factor (false for admins and unattached users). */
export async function clientRequiresSecondFactor(db: Executor, clientId: number | null): Promise<boolean> {
  if (clientId === null) return false;
  const [row] = await db
    .select({ required: clients.requireSecondFactor })
    .from(clients)
    .where(eq(clients.id, clientId))
    .limit(1);
  return row?.required ?? false;
}

/** Whether this signed-in user must keep a second factor. */
export async function userMustHaveFactor(
  db: Executor,
  auth: AuthContext,
  adminPolicy: AdminSecondFactor,
): Promise<boolean> {
  const clientRequires = auth.user.isAdmin ? false : await clientRequiresSecondFactor(db, auth.user.clientId);
  return mustHaveSecondFactor(
    { isAdmin: auth.user.isAdmin, clientRequiresSecondFactor: clientRequires },
    adminPolicy,
  );
}

/** GET /api/me/second-factor/. */
export async function describeSecondFactor(
  db: Executor,
  auth: AuthContext,
  adminPolicy: AdminSecondFactor,
): Promise<SecondFactorStatus> {
  const factor = await readTotpFactor(db, auth.user.id);
  const [left] = await db
    .select({ value: count() })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.userId, auth.user.id), isNull(userRecoveryCodes.usedAt)));
  return {
    totp: {
      enrolled: Boolean(factor?.confirmedAt),
      pending: Boolean(factor && !factor.confirmedAt),
      confirmed_at: factor?.confirmedAt?.toISOString() ?? null,
    },
    passkeys: (await listPasskeys(db, auth.user.id)).map(passkeyOut),
    recovery_codes_left: factor?.confirmedAt ? (left?.value ?? 0) : 0,
    required: await userMustHaveFactor(db, auth, adminPolicy),
  };
}

/** Keeps a pending (unconfirmed) secret, replacing any earlier pending one. */
export async function keepPendingTotp(db: Executor, userId: number, secretSealed: string): Promise<void> {
  await db
    .insert(userTotpFactors)
    .values({ userId, secretSealed })
    .onConflictDoUpdate({
      target: userTotpFactors.userId,
      set: { secretSealed, confirmedAt: null, lastUsedStep: null, createdAt: new Date() },
      // A confirmed factor is never overwritten by a new enrolment.
      setWhere: isNull(userTotpFactors.confirmedAt),
    });
}

/**
 * Spends a code from the user's app: right within a step either side of now, and of a later step
 * than any used before (one conditional update, so two requests cannot both spend one code).
 * pending: check the unconfirmed secret (enrolment's confirmation) and confirm it.
 */
export async function spendTotpCode(
  db: Executor,
  secretsKey: string,
  userId: number,
  code: string,
  pending = false,
): Promise<boolean> {
  const factor = await readTotpFactor(db, userId);
  if (!factor || Boolean(factor.confirmedAt) === pending) return false;
  const secret = openSecret(secretsKey, factor.secretSealed);
  if (!secret) return false;
  const step = matchingTotpStep(secret, code);
  if (step === null) return false;
  const spent = await db
    .update(userTotpFactors)
    .set({ lastUsedStep: step, ...(pending ? { confirmedAt: new Date() } : {}) })
    .where(
      and(
        eq(userTotpFactors.userId, userId),
        pending ? isNull(userTotpFactors.confirmedAt) : isNotNull(userTotpFactors.confirmedAt),
        or(isNull(userTotpFactors.lastUsedStep), lt(userTotpFactors.lastUsedStep, step)),
      ),
    )
    .returning({ userId: userTotpFactors.userId });
  return spent.length === 1;
}

/** Spends one of the user's unused recovery codes (one conditional update: each works once). */
export async function spendRecoveryCode(db: Executor, userId: number, code: string): Promise<boolean> {
  const spent = await db
    .update(userRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(userRecoveryCodes.userId, userId),
        eq(userRecoveryCodes.codeHash, recoveryCodeHash(code)),
        isNull(userRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: userRecoveryCodes.id });
  return spent.length === 1;
}

/** Ten new recovery codes replace the user's earlier ones; the codes are returned once, never kept. */
export async function replaceRecoveryCodes(db: Executor, userId: number): Promise<string[]> {
  const codes = newRecoveryCodes();
  await db.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  await db
    .insert(userRecoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: recoveryCodeHash(code) })));
  return codes;
}

/** Removes the user's authenticator app and recovery codes; whether there was a confirmed factor. */
export async function deleteSecondFactors(db: Executor, userId: number): Promise<boolean> {
  const removed = await db
    .delete(userTotpFactors)
    .where(eq(userTotpFactors.userId, userId))
    .returning({ confirmedAt: userTotpFactors.confirmedAt });
  await db.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  return removed.some((row) => row.confirmedAt !== null);
}
