import { PASSWORD_MISMATCH_MESSAGE, type registrationSchema } from "@cyclebill/domain";
import type { z } from "zod";
import type { Database } from "../../db/database.js";
import { pgErrorCode } from "../../db/pg-errors.js";
import { fieldError } from "../../http/errors.js";
import type { Mailer } from "../mail/mailer.js";
import { createUser, findUserByEmail } from "../users/create-user.js";
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
 * Self-registration: an active user attached to no client, who can sign in but do nothing
 * until the provider attaches the account to a client. An email that already has an account is
 * answered exactly like a new one (so the form cannot tell who has an account), and its owner is
 * told by email instead; the address's owner, not the answer, learns of it.
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
  const existing = await findUserByEmail(db, email);
  if (existing) {
    // Hashed anyway, so a taken email takes as long to answer as a new one.
    await hashPassword(input.password);
    await tellTakenEmail(db, mailer, publicUrl, existing);
    return answer;
  }
  const user = await createUser(db, {
    email,
    password: input.password,
    firstName: input.firstName,
    lastName: input.lastName,
  }).catch((error: unknown) => {
    // Two registrations racing for one address: the unique index decides, the answer is the same.
    if (pgErrorCode(error) === "23505") return null;
    throw error;
  });
  if (!user) return answer;
  await mailer.send({
    to: user.email,
    subject: "Welcome to Cyclebill",
    text: [
      `Hello ${user.firstName},`,
      "",
      `Your Cyclebill account (${user.email}) is ready. Sign in at ${publicUrl}/ .`,
      "Your billing provider attaches the account to your business; until then there is nothing to see yet.",
    ].join("\n"),
  });
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
      `If it was you: sign in at ${publicUrl}/ , or use Forgot Password on that page to get a reset link.`,
      "If it was not you, you can ignore this email.",
    ].join("\n"),
  });
}
