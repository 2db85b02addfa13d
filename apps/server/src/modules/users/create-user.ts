import { sql } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { users } from "../../db/tables.js";
import { hashPassword } from "../auth/passwords.js";

export type NewUser = {
  email: string;
  password: string | null;
  firstName?: string;
  lastName?: string;
  isAdmin?: boolean;
  isClientStaff?: boolean;
  clientId?: number | null;
};

export type UserRow = typeof users.$inferSelect;

/** Creates a user whose username is its email (lower-cased), with an argon2id password hash. */
export async function createUser(db: Executor, user: NewUser): Promise<UserRow> {
  const email = user.email.trim().toLowerCase();
  const [row] = await db
    .insert(users)
    .values({
      username: email,
      email,
      firstName: user.firstName ?? "",
      lastName: user.lastName ?? "",
      passwordHash: user.password === null ? null : await hashPassword(user.password),
      isAdmin: user.isAdmin ?? false,
      isClientStaff: user.isClientStaff ?? false,
      clientId: user.clientId ?? null,
    })
    .returning();
  if (!row) throw new Error("user not created");
  return row;
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return row;
}

export async function countUsers(db: Executor): Promise<number> {
  const [row] = await db.select({ total: sql<number>`count(*)::int` }).from(users);
  return row?.total ?? 0;
}
