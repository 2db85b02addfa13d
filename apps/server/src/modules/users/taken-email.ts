import type { userInputSchema } from "@cyclebill/domain";
import type { z } from "zod";
import type { Executor } from "../../db/database.js";
import { users } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import type { Mailer } from "../mail/mailer.js";
import type { UserRow } from "./create-user.js";
import { usersResource } from "./users.resource.js";
import { auditUser } from "./user-audit.js";

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

/**
 * An owner added an address that has a proven account elsewhere. The answer must read as for any
 * new user, so the client gets a real user as any invitation makes: unproven, no password, in its
 * list until someone deletes it. No link goes out (the address's account is elsewhere, and one
 * address has one proven account), so it never signs in; the address's owner is told instead.
 */
export async function addPendingClash(
  db: Executor,
  mailer: Mailer,
  publicUrl: string,
  tenant: TenantContext,
  input: z.output<typeof userInputSchema>,
  existing: Pick<UserRow, "email" | "firstName">,
): Promise<UserRow> {
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(users)
      .values({
        ...usersResource.toValues(input),
        clientId: tenant.clientId,
        passwordHash: null,
      } as typeof users.$inferInsert)
      .returning();
    if (!created) throw new Error("user not created");
    // As any invitation reads in the client's trail; the provider's reviewers see the same.
    await auditUser(tx, "user.invite", null, created);
    return created;
  });
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
  return row;
}
