import { and, eq, ne, sql } from "drizzle-orm";
import { DUPLICATE_EMAIL_MESSAGE, type userInputSchema } from "@cyclebill/domain";
import type { z } from "zod";
import type { Database } from "../../db/database.js";
import { pgErrorCode } from "../../db/pg-errors.js";
import { clients, users } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError, forbidden, nonFieldError } from "../../http/errors.js";
import {
  INVITATION_TOKEN_MINUTES,
  issueResetToken,
  passwordResetLink,
  spendUserLinks,
} from "../auth/password-reset.js";
import { listLoginAlerts } from "../auth/login-alerts.js";
import type { Mailer } from "../mail/mailer.js";
import { findUserByEmail, isProven } from "./create-user.js";
import { addPendingClash, EMAIL_REFUSED_MESSAGE, mayRevealClash } from "./taken-email.js";
import { replaceUnprovenAccount } from "./user-account-changes.js";
import { auditUser } from "./user-audit.js";
import { getTenantRecord, listTenantRecords } from "../tenancy/tenant-records.js";
import { canManageUsers, USERS_FORBIDDEN_DETAIL, usersResource, type UserOutput } from "./users.resource.js";

type UserInput = z.output<typeof userInputSchema>;

function assertCanManage(tenant: TenantContext): void {
  if (!canManageUsers(tenant)) throw forbidden(USERS_FORBIDDEN_DETAIL);
}

export async function listClientUsers(
  db: Database,
  tenant: TenantContext,
  query: Parameters<typeof listTenantRecords>[3],
) {
  assertCanManage(tenant);
  return listTenantRecords(db, tenant, usersResource, query);
}

/** The client's users under a sign-in attack now, for the User Management tab. */
export async function listClientLoginAlerts(db: Database, tenant: TenantContext) {
  assertCanManage(tenant);
  return listLoginAlerts(db, tenant.clientId);
}

export async function getClientUser(db: Database, tenant: TenantContext, id: number): Promise<UserOutput> {
  assertCanManage(tenant);
  return getTenantRecord(db, tenant, usersResource, id);
}

/**
 * Refuses an email another user has. Only a clash the caller may know of (its own client's user,
 * or any for a provider admin) gets the spec's duplicate-key message; an email of another client's
 * user or of the provider's admin gets the plain refusal, which names no account.
 */
async function assertEmailFree(
  db: Database,
  tenant: TenantContext,
  email: string,
  exceptUserId: number,
): Promise<void> {
  const [clash] = await db
    .select({ id: users.id, clientId: users.clientId })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, ne(users.id, exceptUserId)))
    .limit(1);
  if (!clash) return;
  throw fieldError("email", mayRevealClash(tenant, clash) ? DUPLICATE_EMAIL_MESSAGE : EMAIL_REFUSED_MESSAGE);
}

function duplicateAsFieldError(error: unknown): never {
  if (pgErrorCode(error) === "23505") throw fieldError("email", DUPLICATE_EMAIL_MESSAGE);
  throw error;
}

/**
 * Adds a user to the client and emails a link to set a password (following it proves the address).
 * What the address already has decides the rest, and an owner's answer is the same in every case:
 * - an account of this client: the duplicate message;
 * - a proven account elsewhere: a provider admin hears "duplicate"; an owner gets a real user that
 *   can never sign in, and the address is told instead (taken-email.ts);
 * - an unproven self-registration: replaced by this user (its password and sessions are void), and
 *   the invitation goes to the address;
 * - otherwise (nothing, or other clients' unaccepted invitations): a new user and an invitation.
 */
export async function addClientUser(
  db: Database,
  mailer: Mailer,
  publicUrl: string,
  tenant: TenantContext,
  input: UserInput,
): Promise<UserOutput> {
  assertCanManage(tenant);
  const [existing, inClient] = await Promise.all([
    findUserByEmail(db, input.email),
    findClientUserByEmail(db, tenant.clientId, input.email),
  ]);
  if (inClient) throw fieldError("email", DUPLICATE_EMAIL_MESSAGE);
  if (existing && isProven(existing)) {
    if (mayRevealClash(tenant, existing)) throw fieldError("email", DUPLICATE_EMAIL_MESSAGE);
    const pending = await addPendingClash(db, mailer, publicUrl, tenant, input, existing);
    return usersResource.toApi(pending);
  }
  const replacing = existing && existing.clientId === null ? existing : undefined;
  const { user, token } = await db
    .transaction(async (tx) => {
      const values = { ...usersResource.toValues(input), clientId: tenant.clientId, passwordHash: null };
      if (replacing) await spendUserLinks(tx, replacing.id);
      const created = replacing
        ? await replaceUnprovenAccount(tx, replacing.id, {
            firstName: input.firstName,
            lastName: input.lastName,
            clientId: tenant.clientId,
            isClientStaff: input.isStaff,
            isActive: input.is_active,
            passwordHash: null,
          })
        : (
            await tx
              .insert(users)
              .values(values as typeof users.$inferInsert)
              .returning()
          )[0];
      if (!created) throw new Error("user not created");
      if (!replacing) await auditUser(tx, "user.invite", null, created);
      return { user: created, token: await issueResetToken(tx, created.id, INVITATION_TOKEN_MINUTES) };
    })
    .catch(duplicateAsFieldError);
  const business = await clientNameOf(db, tenant.clientId);
  // A provider admin adds users on a business's behalf: the email names the business, not the admin.
  const inviter = tenant.user.isAdmin
    ? "Your billing provider"
    : [tenant.user.firstName, tenant.user.lastName].join(" ").trim() || "Your billing team";
  await mailer.send({
    to: user.email,
    subject: `You have a Cyclebill account for ${business}`,
    text: [
      `Hello ${user.firstName},`,
      "",
      `${inviter} added you to ${business}'s billing on Cyclebill. Choose your password with this link`,
      "(it works once, within 72 hours):",
      "",
      passwordResetLink(publicUrl, user, token),
      "",
      `Afterwards, sign in at ${publicUrl}/ with ${user.email}.`,
    ].join("\n"),
  });
  return usersResource.toApi(user);
}

/** This client's user with the address, proven or not. */
async function findClientUserByEmail(db: Database, clientId: number, email: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.clientId, clientId), sql`lower(${users.email}) = ${email.trim().toLowerCase()}`))
    .limit(1);
  return row;
}

async function clientNameOf(db: Database, clientId: number): Promise<string> {
  const [client] = await db
    .select({ name: clients.clientName })
    .from(clients)
    .where(eq(clients.id, clientId))
    .limit(1);
  return client?.name.trim() || "your business";
}

export async function updateClientUser(
  db: Database,
  tenant: TenantContext,
  id: number,
  input: UserInput,
): Promise<UserOutput> {
  assertCanManage(tenant);
  await getTenantRecord(db, tenant, usersResource, id);
  if (id === tenant.user.id && (input.isStaff || !input.is_active)) {
    throw nonFieldError("You cannot make yourself staff or inactive; ask another owner.");
  }
  await assertEmailFree(db, tenant, input.email, id);
  const row = await db
    .transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(users)
        .where(and(eq(users.id, id), eq(users.clientId, tenant.clientId)))
        .for("update");
      const [after] = await tx
        .update(users)
        .set(usersResource.toValues(input))
        .where(and(eq(users.id, id), eq(users.clientId, tenant.clientId)))
        .returning();
      if (!before || !after) throw new Error("user vanished during update");
      await auditUser(tx, "user.update", before, after);
      return after;
    })
    .catch(duplicateAsFieldError);
  return usersResource.toApi(row);
}

export async function deleteClientUser(db: Database, tenant: TenantContext, id: number): Promise<void> {
  assertCanManage(tenant);
  await getTenantRecord(db, tenant, usersResource, id);
  if (id === tenant.user.id) throw nonFieldError("You cannot delete your own account.");
  await db.transaction(async (tx) => {
    const removed = await tx
      .delete(users)
      .where(and(eq(users.id, id), eq(users.clientId, tenant.clientId)))
      .returning();
    // The deleted user stays readable in the trail.
    for (const row of removed) await auditUser(tx, "user.delete", row, null);
  });
}
