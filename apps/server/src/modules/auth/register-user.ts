import {
  DUPLICATE_EMAIL_MESSAGE,
  PASSWORD_MISMATCH_MESSAGE,
  type registrationSchema,
} from "@cyclebill/domain";
import type { z } from "zod";
import type { Database } from "../../db/database.js";
import { pgErrorCode } from "../../db/pg-errors.js";
import { fieldError } from "../../http/errors.js";
import type { Mailer } from "../mail/mailer.js";
import { createUser, findUserByEmail } from "../users/create-user.js";
import { assertAcceptablePassword } from "./common-passwords.js";

export type RegisteredUser = {
  id: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  name: string;
};

/**
 * Self-registration: an active user attached to no client, who can sign in but do nothing
 * until the provider attaches the account to a client.
 */
export async function registerUser(
  db: Database,
  mailer: Mailer,
  publicUrl: string,
  input: z.output<typeof registrationSchema>,
): Promise<RegisteredUser> {
  if (input.password !== input.confirmPassword)
    throw fieldError("confirmPassword", PASSWORD_MISMATCH_MESSAGE);
  assertAcceptablePassword("password", input.password);
  if (await findUserByEmail(db, input.email)) throw fieldError("email", DUPLICATE_EMAIL_MESSAGE);
  const user = await createUser(db, {
    email: input.email,
    password: input.password,
    firstName: input.firstName,
    lastName: input.lastName,
  }).catch((error: unknown) => {
    // Two registrations racing for one address: the unique index decides.
    if (pgErrorCode(error) === "23505") throw fieldError("email", DUPLICATE_EMAIL_MESSAGE);
    throw error;
  });
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
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    name: `${user.firstName} ${user.lastName}`.trim(),
  };
}
