import { desc, eq } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { clients, systemMessages } from "../../db/tables.js";
import type { AuthContext } from "../../http/auth-context.js";

export type Messages = { client_message: string; system_message: string };

/** The bell's messages: the user's (or the admin's selected) client message and the provider's system message. */
export async function getMessages(
  db: Database,
  auth: AuthContext,
  selectedClientId?: number,
): Promise<Messages> {
  const clientId = auth.user.isAdmin ? (selectedClientId ?? null) : auth.user.clientId;
  const [client] =
    clientId === null
      ? []
      : await db
          .select({ message: clients.clientMessage })
          .from(clients)
          .where(eq(clients.id, clientId))
          .limit(1);
  const [system] = await db
    .select({ body: systemMessages.body })
    .from(systemMessages)
    .orderBy(desc(systemMessages.id))
    .limit(1);
  return { client_message: client?.message ?? "", system_message: system?.body ?? "" };
}

/** Admins set the system message; the newest row is the current one, older ones stay as history. */
export async function setSystemMessage(db: Database, auth: AuthContext, body: string): Promise<Messages> {
  await db.insert(systemMessages).values({ body, createdByUserId: auth.user.id });
  return getMessages(db, auth);
}
