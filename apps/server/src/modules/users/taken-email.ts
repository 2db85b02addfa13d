import { sql } from "drizzle-orm";
import type { userInputSchema } from "@cyclebill/domain";
import { z } from "zod";
import { currentClock } from "../../clock.js";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import type { TenantContext } from "../../http/auth-context.js";
import type { Mailer } from "../mail/mailer.js";
import type { UserRow } from "./create-user.js";
import { usersResource, type UserOutput } from "./users.resource.js";

/** An owner's edit to an email they may not learn is taken: says nothing of whose it is. */
export const EMAIL_REFUSED_MESSAGE = "This email address cannot be given to this user. Choose another one.";

/**
 * Whether a clash on this email may be answered with "duplicate": only when the existing user is
 * the caller's own client's (they can list those anyway) or the caller is a provider admin. An
 * owner must not learn which emails other clients (or the provider) use.
 */
export function mayRevealClash(tenant: TenantContext, existing: Pick<UserRow, "clientId">): boolean {
  return tenant.user.isAdmin || existing.clientId === tenant.clientId;
}

/** The users' next id, spent. */
const nextUserIdRowSchema = z.object({ id: dbInt });

/**
 * Answers an owner who added an email another account already has exactly as for a new user
 * (a fresh id from the users' sequence, the owner's own input, no password yet), and tells the
 * address's owner instead of inviting them. Nothing of the other account is in the answer.
 */
export async function answerTakenEmail(
  db: Database,
  mailer: Mailer,
  publicUrl: string,
  tenant: TenantContext,
  input: z.output<typeof userInputSchema>,
  existing: Pick<UserRow, "email" | "firstName">,
): Promise<UserOutput> {
  // Spending a real id keeps the answer indistinguishable from a created user's.
  const [next] = await queryRows(
    db,
    sql`select nextval(pg_get_serial_sequence('users', 'id')) as id`,
    nextUserIdRowSchema,
  );
  await mailer.send({
    to: existing.email,
    subject: "Someone tried to add your email to Cyclebill",
    text: [
      `Hello ${existing.firstName || existing.email},`,
      "",
      `${tenant.user.firstName || "A billing team"} tried to add ${existing.email} as a new user of their business on Cyclebill.`,
      "An email address belongs to one Cyclebill account only, so nothing was changed: your account stays as it is",
      "and nobody was told that the address already has an account.",
      "",
      "If you work with them and expected this, ask them to add you with another email address, or ask your",
      `billing provider to move your account. Otherwise you can ignore this email. Sign in at ${publicUrl}/ .`,
    ].join("\n"),
  });
  const values = usersResource.toValues(input);
  const unsaved: UserRow = {
    id: Number(next?.id),
    username: values.username ?? "",
    email: values.email ?? "",
    firstName: values.firstName ?? "",
    lastName: values.lastName ?? "",
    passwordHash: null,
    isActive: values.isActive ?? true,
    isAdmin: false,
    isClientStaff: values.isClientStaff ?? false,
    clientId: tenant.clientId,
    lastLogin: null,
    tokensValidAfter: null,
    loginCount: 0,
    createdAt: currentClock().now(),
  };
  return usersResource.toApi(unsaved);
}
