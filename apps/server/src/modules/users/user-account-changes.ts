import { and, eq, isNull, sql } from "drizzle-orm";
import { EMAIL_ALREADY_PROVEN_MESSAGE } from "@cyclebill/domain";
import { currentClock } from "../../clock.js";
import type { Database, Executor } from "../../db/database.js";
import { currentAuditActor, withAuditActor, type AuditActor } from "../audit/audit-context.js";
import { pgErrorCode } from "../../db/pg-errors.js";
import { users } from "../../db/tables.js";
import { fieldError } from "../../http/errors.js";
import { auditUser } from "./user-audit.js";

// The users module owns the users table: sign-in, password reset, registration and the CLI's
// attach-user change a user through these.

/** A successful sign-in: when, and how many; in the trail as the user's own act. */
export async function recordSignIn(db: Database, userId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ lastLogin: sql`now()`, loginCount: sql`${users.loginCount} + 1` })
      .where(eq(users.id, userId))
      .returning();
    if (row) await withAuditActor(signedInActor(row), () => auditUser(tx, "user.sign_in", row, row));
  });
}

/** Who signs in is the actor of their sign-in (the request had nobody signed in yet). */
function signedInActor(user: { id: number; email: string }): AuditActor {
  return { ...currentAuditActor(), kind: "user", userId: user.id, label: user.email };
}

/**
 * A new password. Tokens issued before now stop working; the app's clock, as token stamps use it,
 * so a sign-in right after is not refused.
 */
export async function setPasswordHash(db: Executor, userId: number, passwordHash: string): Promise<void> {
  const [before] = await db.select().from(users).where(eq(users.id, userId)).for("update");
  const [after] = await db
    .update(users)
    .set({ passwordHash, tokensValidAfter: new Date() })
    .where(eq(users.id, userId))
    .returning();
  await auditUser(db, "user.set_password", before ?? null, after ?? null);
}

/**
 * Ends every session of the user: tokens issued before now are refused (Date.now(), as token stamps
 * use it, so the fresh token the caller is handed right after is not).
 */
export async function endUserSessions(db: Executor, userId: number, reason: string): Promise<void> {
  const [before] = await db.select().from(users).where(eq(users.id, userId)).for("update");
  const [after] = await db
    .update(users)
    .set({ tokensValidAfter: new Date() })
    .where(eq(users.id, userId))
    .returning();
  await auditUser(db, "user.end_sessions", before ?? null, after ?? null, reason);
}

/**
 * The address's owner followed an emailed link: the account is proven (kept if it already was).
 * An address has one proven account; if another one proved it first, this one cannot.
 */
export async function markEmailProven(db: Executor, userId: number): Promise<void> {
  const [before] = await db.select().from(users).where(eq(users.id, userId)).for("update");
  if (!before || before.emailVerifiedAt) return;
  const [after] = await db
    .update(users)
    .set({ emailVerifiedAt: currentClock().now() })
    .where(eq(users.id, userId))
    .returning()
    .catch((error: unknown) => {
      if (pgErrorCode(error) === "23505") throw fieldError("email", EMAIL_ALREADY_PROVEN_MESSAGE);
      throw error;
    });
  await auditUser(db, "user.prove_email", before, after ?? null);
}

/**
 * An unproven account is taken over: by a new registration of its address (the latest registrant's
 * names and password), or by an owner's invitation (the client's user, no password until the link is
 * followed). Either way the earlier password and sessions are void; the caller spends its links.
 */
export async function replaceUnprovenAccount(
  db: Executor,
  userId: number,
  values: Pick<typeof users.$inferInsert, "firstName" | "lastName" | "passwordHash"> &
    Partial<Pick<typeof users.$inferInsert, "clientId" | "isClientStaff" | "isActive">>,
): Promise<typeof users.$inferSelect> {
  const [before] = await db.select().from(users).where(eq(users.id, userId)).for("update");
  const [row] = await db
    .update(users)
    .set({ ...values, tokensValidAfter: new Date() })
    .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)))
    .returning();
  if (!row) throw new Error("the unproven account was proven or removed meanwhile");
  // Moved into a client: the change is that client's record (the provider's chain keeps the registration).
  await auditUser(db, "user.replace_unproven", before ?? null, row);
  return row;
}

/**
 * The provider attaches a proven user to a client, as its owner or its staff. An invitation of the
 * same address in that client that nobody accepted gives way: the address has its account now.
 */
export async function attachUserToClient(
  db: Executor,
  user: { id: number; email: string },
  clientId: number,
  staff: boolean,
): Promise<void> {
  const removed = await db
    .delete(users)
    .where(
      and(
        eq(users.clientId, clientId),
        sql`lower(${users.email}) = ${user.email.toLowerCase()}`,
        isNull(users.emailVerifiedAt),
        sql`${users.id} <> ${user.id}`,
      ),
    )
    .returning();
  for (const row of removed)
    await auditUser(db, "user.delete", row, null, "replaced by the attached account");
  const [before] = await db.select().from(users).where(eq(users.id, user.id)).for("update");
  const [after] = await db
    .update(users)
    .set({ clientId, isClientStaff: staff })
    .where(eq(users.id, user.id))
    .returning();
  await auditUser(db, "user.attach", before ?? null, after ?? null);
}
