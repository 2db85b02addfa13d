import { eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { users } from "../../db/tables.js";

// The users module owns the users table: sign-in, password reset and the CLI's attach-user
// change a user through these.

/** A successful sign-in: when, and how many. */
export async function recordSignIn(db: Executor, userId: number): Promise<void> {
  await db
    .update(users)
    .set({ lastLogin: sql`now()`, loginCount: sql`${users.loginCount} + 1` })
    .where(eq(users.id, userId));
}

/**
 * A new password. Tokens issued before now stop working; the app's clock, as token stamps use it,
 * so a sign-in right after is not refused.
 */
export async function setPasswordHash(db: Executor, userId: number, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash, tokensValidAfter: new Date() }).where(eq(users.id, userId));
}

/** The provider attaches a user to a client, as its owner or its staff. */
export async function attachUserToClient(
  db: Executor,
  userId: number,
  clientId: number,
  staff: boolean,
): Promise<void> {
  await db.update(users).set({ clientId, isClientStaff: staff }).where(eq(users.id, userId));
}
