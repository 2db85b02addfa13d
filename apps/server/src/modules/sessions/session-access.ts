import { eq } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { users } from "../../db/tables.js";
import type { AuthUser } from "../../http/auth-context.js";
import { forbidden, notFound } from "../../http/errors.js";

/**
 * Whose sessions the caller may list and end: their own always; an owner their own client's users'
 * (another client's user answers 404, as if it did not exist); a provider admin anyone's. Staff and
 * users of no client have only their own (403).
 */
export async function assertMayManageSessionsOf(
  db: Executor,
  caller: AuthUser,
  target: { userId: number; clientId?: number | null },
): Promise<void> {
  if (target.userId === caller.id) return;
  if (!caller.isAdmin && (caller.isClientStaff || caller.clientId === null)) throw forbidden();
  const clientId =
    target.clientId !== undefined
      ? target.clientId
      : (await db.select({ clientId: users.clientId }).from(users).where(eq(users.id, target.userId)))[0]
          ?.clientId;
  if (clientId === undefined) throw notFound();
  if (!caller.isAdmin && clientId !== caller.clientId) throw notFound();
}
