import { PASSWORD_MISMATCH_MESSAGE, type registrationSchema } from "@cyclebill/domain";
import type { z } from "zod";
import type { Database } from "../../db/database.js";
import { pgErrorCode } from "../../db/pg-errors.js";
import { fieldError } from "../../http/errors.js";
import type { Mailer } from "../mail/mailer.js";
import { createUser, findUserByEmail, isProven } from "../users/create-user.js";
import { replaceUnprovenAccount } from "../users/user-account-changes.js";
import { CONFIRMATION_TOKEN_MINUTES, sendConfirmation } from "./confirm-registration.js";
import { issueResetToken, spendUserLinks } from "./password-reset.js";
import { assertAcceptablePassword } from "./common-passwords.js";
import { hashPassword } from "./passwords.js";
import { admitRegistration, mayNoticeTakenEmail } from "./public-door-limits.js";

/** The answer to a registration: the same whether or not the email already had an account. */
export type RegisteredUser = {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  name: string;
};

type Registration = z.output<typeof registrationSchema>;

/**
 * Self-registration: a user attached to no client, who proves the email by following the emailed
 * link (and can sign in only then), and can do nothing until the provider attaches the account to a
 * client. The answer is the same whatever the address already has, so the form cannot tell who has
 * an account:
 * - a proven account: its owner is told by email, nothing changes;
 * - an unproven registration: the latest registrant's names and password replace it, and a new link
 *   goes to the address (only the address's owner can follow it, and only with that password);
 * - an invitation nobody accepted yet: its owner is told, as for a proven account (Forgot Password
 *   sends them a link).
 */
export async function registerUser(
  db: Database,
  mailer: Mailer,
  publicUrl: string,
  input: Registration,
  address: string,
): Promise<RegisteredUser> {
  await admitRegistration(db, address);
  if (input.password !== input.confirmPassword)
    throw fieldError("confirmPassword", PASSWORD_MISMATCH_MESSAGE);
  assertAcceptablePassword("password", input.password);
  const email = input.email.trim().toLowerCase();
  const answer: RegisteredUser = {
    username: email,
    email,
    firstName: input.firstName,
    lastName: input.lastName,
    name: `${input.firstName} ${input.lastName}`.trim(),
  };
  // Hashed whatever happens next, so every answer takes as long.
  const passwordHash = await hashPassword(input.password);
  const existing = await findUserByEmail(db, email);
  if (existing && (isProven(existing) || existing.clientId !== null)) {
    await tellTakenEmail(db, mailer, publicUrl, existing);
    return answer;
  }
  const registered = await db
    .transaction(async (tx) => {
      const names = { firstName: input.firstName, lastName: input.lastName, passwordHash };
      if (existing) await spendUserLinks(tx, existing.id);
      const user = existing
        ? await replaceUnprovenAccount(tx, existing.id, names)
        : await createUser(tx, { email, password: null, ...names, emailVerified: false });
      return { user, token: await issueResetToken(tx, user.id, CONFIRMATION_TOKEN_MINUTES) };
    })
    .catch((error: unknown) => {
      // Two registrations racing for one address: the unique index decides, the answer is the same.
      if (pgErrorCode(error) === "23505") return null;
      throw error;
    });
  if (registered) await sendConfirmation(mailer, publicUrl, registered.user, registered.token);
  return answer;
}

async function tellTakenEmail(
  db: Database,
  mailer: Mailer,
  publicUrl: string,
  existing: { email: string; firstName: string },
): Promise<void> {
  if (!(await mayNoticeTakenEmail(db, existing.email.toLowerCase()))) return;
  await mailer.send({
    to: existing.email,
    subject: "Someone tried to register with your email on Cyclebill",
    text: [
      `Hello ${existing.firstName || existing.email},`,
      "",
      `Someone tried to register a new Cyclebill account with ${existing.email}. This address already has an`,
      "account, so nothing was changed and nobody was told that it has one.",
      "",
      `If it was you: sign in at ${publicUrl}/ , or use Forgot Password on that page to get a link to choose`,
      "a password.",
      "If it was not you, you can ignore this email.",
    ].join("\n"),
  });
}
