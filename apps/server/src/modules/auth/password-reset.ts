import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import {
  PASSWORD_MISMATCH_MESSAGE,
  RESET_TOKEN_INVALID_MESSAGE,
  type forgotPasswordSchema,
  type resetPasswordSchema,
} from "@cyclebill/domain";
import type { z } from "zod";
import type { Database, Executor } from "../../db/database.js";
import { passwordResetTokens, users } from "../../db/tables.js";
import { fieldError, HttpError } from "../../http/errors.js";
import type { Mailer } from "../mail/mailer.js";
import { findUserByEmail, type UserRow } from "../users/create-user.js";
import { assertAcceptablePassword } from "./common-passwords.js";
import { hashPassword } from "./passwords.js";
import { admitPasswordReset } from "./public-door-limits.js";
import { countAttempt, minutesLeft } from "./rate-limit.js";
import { currentClock } from "../../clock.js";
import { markEmailProven, setPasswordHash } from "../users/user-account-changes.js";
import { recordChange } from "../audit/record-change.js";
import { endAllSessions } from "../sessions/end-sessions.js";

export const RESET_TOKEN_MINUTES = 30;
/** Reset emails per address asked for, and requests per client address, in an hour. */
export const RESET_EMAILS_PER_HOUR = 5;
export const RESET_REQUESTS_PER_ADDRESS_PER_HOUR = 20;
const HOUR_MS = 60 * 60_000;
/** A new user's set-password link lives longer than a reset link: the invitation may wait a weekend. */
export const INVITATION_TOKEN_MINUTES = 72 * 60;

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Spends every outstanding emailed link of a user (reset, invitation, confirmation). */
export async function spendUserLinks(db: Executor, userId: number): Promise<void> {
  await db
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}

/** 256 random bits; only its SHA-256 is stored. */
export async function issueResetToken(db: Executor, userId: number, minutes: number): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(currentClock().now().getTime() + minutes * 60_000);
  const [link] = await db
    .insert(passwordResetTokens)
    .values({ userId, tokenHash: hashToken(token), expiresAt })
    .returning({ id: passwordResetTokens.id });
  const [user] = await db.select({ clientId: users.clientId }).from(users).where(eq(users.id, userId));
  // The link is a secret: the trail says only that one went out, to whom, and until when.
  await recordChange(db, {
    clientId: user?.clientId ?? null,
    action: "user.issue_link",
    recordKind: "user",
    recordId: userId,
    before: null,
    after: { link_id: link?.id ?? null, expires_at: expiresAt.toISOString() },
  });
  return token;
}

export function passwordResetLink(
  publicUrl: string,
  user: Pick<UserRow, "email" | "username">,
  token: string,
): string {
  const query = new URLSearchParams({ email: user.email, token, username: user.username });
  return `${publicUrl}/passwordReset?${query.toString()}`;
}

/**
 * Emails a reset link to an active user. Unknown addresses get the same answer, so the form
 * cannot be used to find out who has an account. An address asking too often gets 429; an email
 * asked for too often gets the same answer but no more mail (its owner already has 5 links, and
 * a different answer would tell the asker nothing useful).
 */
export async function requestPasswordReset(
  db: Database,
  mailer: Mailer,
  publicUrl: string,
  input: z.output<typeof forgotPasswordSchema>,
  address: string,
): Promise<{ success: true }> {
  const byAddress = await countAttempt(db, { purpose: "reset", address }, HOUR_MS);
  if (byAddress.attempts > RESET_REQUESTS_PER_ADDRESS_PER_HOUR) {
    const minutes = minutesLeft(byAddress, HOUR_MS);
    throw new HttpError(429, {
      detail: `Too many password reset requests. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    });
  }
  // Counted for unknown addresses too, so the limit says nothing about who has an account.
  const email = input.email.trim().toLowerCase();
  const byEmail = await countAttempt(db, { purpose: "reset", account: email }, HOUR_MS);
  if (byEmail.attempts > RESET_EMAILS_PER_HOUR) return { success: true };
  const user = await findUserByEmail(db, email);
  if (user && user.isActive) {
    const token = await issueResetToken(db, user.id, RESET_TOKEN_MINUTES);
    await mailer.send({
      to: user.email,
      subject: "Reset your Cyclebill password",
      text: [
        `Hello ${user.firstName || user.email},`,
        "",
        "Someone asked to reset the password of your Cyclebill account. To choose a new password, open this link",
        `within ${RESET_TOKEN_MINUTES} minutes:`,
        "",
        passwordResetLink(publicUrl, user, token),
        "",
        "If you did not ask for this, ignore this email: your password stays as it is.",
      ].join("\n"),
    });
  }
  return { success: true };
}

/**
 * The live link's row and user for this email, or undefined (wrong, used, expired or another
 * user's). Reset, invitation and registration links are all such tokens.
 */
export function findLiveToken(tx: Executor, input: { email: string; token: string }, lock: boolean) {
  const query = tx
    .select({ tokenId: passwordResetTokens.id, userId: users.id, passwordHash: users.passwordHash })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(
      and(
        eq(passwordResetTokens.tokenHash, hashToken(input.token)),
        isNull(passwordResetTokens.usedAt),
        // Measured by the clock that set the expiry, not the database server's.
        gt(passwordResetTokens.expiresAt, currentClock().now()),
        sql`lower(${users.email}) = ${input.email.trim().toLowerCase()}`,
        eq(users.isActive, true),
      ),
    )
    .limit(1);
  return (lock ? query.for("update") : query).then(([found]) => found);
}

/**
 * Sets a new password with a single-use, unexpired token, ends every existing session, and proves
 * the account's email.
 * Each address is held to a few attempts an hour, and the token is checked before the password is
 * hashed, so bogus requests cost one indexed lookup, not a hash.
 */
export async function resetPassword(
  db: Database,
  input: z.output<typeof resetPasswordSchema>,
  address: string,
): Promise<{ success: true }> {
  await admitPasswordReset(db, address);
  if (input.password !== input.password_confirmation)
    throw fieldError("password_confirmation", PASSWORD_MISMATCH_MESSAGE);
  assertAcceptablePassword("password", input.password);
  if (!(await findLiveToken(db, input, false))) throw fieldError("token", RESET_TOKEN_INVALID_MESSAGE);
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    // Checked again under the row lock: a parallel request may have spent the token meanwhile.
    const found = await findLiveToken(tx, input, true);
    if (!found) throw fieldError("token", RESET_TOKEN_INVALID_MESSAGE);
    // Every outstanding link of this user is spent, not only the one used.
    await spendUserLinks(tx, found.userId);
    await setPasswordHash(tx, found.userId, passwordHash);
    // Every session ends (tokens_valid_after refuses their tokens too): listed as ended, not open.
    await endAllSessions(tx, found.userId, "password_reset");
    // The link came to the address: its follower owns it (an invitation accepted, a registration proven).
    await markEmailProven(tx, found.userId);
  });
  return { success: true };
}
