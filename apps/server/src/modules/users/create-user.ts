import { desc, sql } from "drizzle-orm";
import { currentClock } from "../../clock.js";
import type { Executor } from "../../db/database.js";
import { users } from "../../db/tables.js";
import { hashPassword } from "../auth/passwords.js";
import { auditUser } from "./user-audit.js";

export type NewUser = {
  email: string;
  password: string | null;
  /** An argon2id hash made already (a registration hashes before it knows what it will do). */
  passwordHash?: string;
  firstName?: string;
  lastName?: string;
  isAdmin?: boolean;
  isClientStaff?: boolean;
  clientId?: number | null;
  /** False for a self-registration, which proves its email by following the emailed link. */
  emailVerified?: boolean;
};

export type UserRow = typeof users.$inferSelect;

/** Creates a user whose username is its email (lower-cased), with an argon2id password hash. */
export async function createUser(db: Executor, user: NewUser): Promise<UserRow> {
  const email = user.email.trim().toLowerCase();
  const passwordHash =
    user.passwordHash ?? (user.password === null ? null : await hashPassword(user.password));
  // Its own transaction (a savepoint inside the caller's): the user and its trail row go together.
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values({
        username: email,
        email,
        firstName: user.firstName ?? "",
        lastName: user.lastName ?? "",
        passwordHash,
        isAdmin: user.isAdmin ?? false,
        isClientStaff: user.isClientStaff ?? false,
        clientId: user.clientId ?? null,
        // Made by the operator (CLI, first admin, demo) or a test: proven as made.
        emailVerifiedAt: user.emailVerified === false ? null : currentClock().now(),
      })
      .returning();
    if (!row) throw new Error("user not created");
    await auditUser(tx, user.emailVerified === false ? "user.register" : "user.create", null, row);
    return row;
  });
}

/**
 * The account an address belongs to: its proven account if it has one, else its unattached
 * self-registration, else its newest invitation (several clients may have invited an address
 * nobody has proven yet).
 */
export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .orderBy(sql`${users.emailVerifiedAt} is null`, sql`${users.clientId} is not null`, desc(users.id))
    .limit(1);
  return row;
}

/** Whether the address's owner has proven it (only such an account signs in or is attached). */
export function isProven(user: Pick<UserRow, "emailVerifiedAt">): boolean {
  return user.emailVerifiedAt !== null;
}

export async function countUsers(db: Executor): Promise<number> {
  const [row] = await db.select({ total: sql<number>`count(*)::int` }).from(users);
  return row?.total ?? 0;
}
