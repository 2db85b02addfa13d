import { eq } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { clients } from "../../db/tables.js";
import { findUserByEmail, isProven } from "./create-user.js";
import { attachUserToClient } from "./user-account-changes.js";

export type AttachOutcome = { ok: boolean; message: string };

export const UNPROVEN_ACCOUNT_MESSAGE =
  "has not confirmed its email address yet, so it cannot be attached: ask its owner to follow the link in the confirmation email (or to use Forgot Password), then attach it.";

/**
 * The CLI's attach-user: a registered account becomes an owner or staff of a client. Only an
 * account whose email is proven: anyone can register any address, and the address's owner may not
 * be the one who did.
 */
export async function attachUser(
  db: Database,
  input: { email: string | undefined; clientNo: string | undefined; staff: boolean },
): Promise<AttachOutcome> {
  const user = input.email ? await findUserByEmail(db, input.email) : undefined;
  if (!user) return { ok: false, message: `No user has the email ${input.email ?? "(missing --email)"}.` };
  if (user.isAdmin)
    return { ok: false, message: "Provider admins work in every client; they are not attached to one." };
  if (!isProven(user)) return { ok: false, message: `${user.email} ${UNPROVEN_ACCOUNT_MESSAGE}` };
  if (!/^\d{1,9}$/.test(input.clientNo ?? ""))
    return { ok: false, message: `--client takes a client number, got "${input.clientNo ?? "(missing)"}".` };
  const [client] = await db
    .select({ id: clients.id, name: clients.clientName })
    .from(clients)
    .where(eq(clients.clientNo, Number(input.clientNo)))
    .limit(1);
  if (!client)
    return { ok: false, message: `No client has the number ${input.clientNo ?? "(missing --client)"}.` };
  await db.transaction((tx) => attachUserToClient(tx, user, client.id, input.staff));
  return {
    ok: true,
    message: `${user.email} is now ${input.staff ? "staff" : "an owner"} of ${client.name}.`,
  };
}
