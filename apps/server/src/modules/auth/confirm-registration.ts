import {
  INVALID_CREDENTIALS_MESSAGE,
  CONFIRM_LINK_INVALID_MESSAGE,
  type confirmRegistrationSchema,
} from "@cyclebill/domain";
import type { z } from "zod";
import type { Database } from "../../db/database.js";
import { fieldError, nonFieldError } from "../../http/errors.js";
import type { Mailer } from "../mail/mailer.js";
import type { UserRow } from "../users/create-user.js";
import { markEmailProven } from "../users/user-account-changes.js";
import { startSession, type SignInFrom } from "./start-session.js";
import { admitLoginAttempt, loginFailed, type ThrottleLog } from "./login-throttle.js";
import { verifyPassword } from "./passwords.js";
import { findLiveToken, issueResetToken, spendUserLinks } from "./password-reset.js";
import { mayNoticeTakenEmail } from "./public-door-limits.js";

/** A registration's link waits as long as an invitation's: it may be read after a weekend. */
export const CONFIRMATION_TOKEN_MINUTES = 72 * 60;

export function confirmationLink(publicUrl: string, email: string, token: string): string {
  // Under /register, which the web app lets anyone open (the spec's unauthenticated pages).
  return `${publicUrl}/register/confirm?${new URLSearchParams({ email, token }).toString()}`;
}

export async function sendConfirmation(
  mailer: Mailer,
  publicUrl: string,
  user: Pick<UserRow, "email" | "firstName">,
  token: string,
): Promise<void> {
  await mailer.send({
    to: user.email,
    subject: "Confirm your email for Cyclebill",
    text: [
      `Hello ${user.firstName || user.email},`,
      "",
      `Someone registered a Cyclebill account with ${user.email}. If it was you, open this link within`,
      "72 hours and enter the password you chose to finish:",
      "",
      confirmationLink(publicUrl, user.email, token),
      "",
      "Until then the account cannot sign in. If it was not you, ignore this email: without the link",
      "the account stays unusable, and your billing provider can never attach it to a business.",
    ].join("\n"),
  });
}

/**
 * The right password for an account that has not proven its email: a new link goes to the address
 * (as often as the taken-email notices, so signing in cannot flood an inbox).
 */
export async function resendConfirmation(
  db: Database,
  mailer: Mailer,
  publicUrl: string,
  user: Pick<UserRow, "id" | "email" | "firstName">,
): Promise<void> {
  if (!(await mayNoticeTakenEmail(db, user.email.toLowerCase()))) return;
  const token = await issueResetToken(db, user.id, CONFIRMATION_TOKEN_MINUTES);
  await sendConfirmation(mailer, publicUrl, user, token);
}

/**
 * Follows a registration's link: the token proves the address, the password proves that the one
 * following it is the one who registered (a link a stranger's registration sent cannot prove the
 * stranger's password). Throttled as sign-in is; on success the account is proven and signed in.
 */
export async function confirmRegistration(
  db: Database,
  jwtSecret: string,
  input: z.output<typeof confirmRegistrationSchema>,
  from: SignInFrom,
  log?: ThrottleLog,
): Promise<{ token: string }> {
  const account = input.email.trim().toLowerCase();
  await admitLoginAttempt(db, account, from.address, log);
  const found = await findLiveToken(db, input, false);
  if (!found) throw fieldError("token", CONFIRM_LINK_INVALID_MESSAGE);
  if (!found.passwordHash || !(await verifyPassword(found.passwordHash, input.password))) {
    await loginFailed(db);
    throw nonFieldError(INVALID_CREDENTIALS_MESSAGE);
  }
  const userId = await db.transaction(async (tx) => {
    // Checked again under the row lock: the link may have been spent meanwhile.
    const locked = await findLiveToken(tx, input, true);
    if (!locked || locked.passwordHash !== found.passwordHash)
      throw fieldError("token", CONFIRM_LINK_INVALID_MESSAGE);
    await spendUserLinks(tx, locked.userId);
    await markEmailProven(tx, locked.userId);
    return locked.userId;
  });
  return startSession(db, jwtSecret, userId, { account, from, rememberMe: input.remember_me });
}
