import { desc, eq } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { clients, systemMessages } from "../../db/tables.js";
import type { AuthContext } from "../../http/auth-context.js";
import { recordChange } from "../audit/record-change.js";

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
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ body: systemMessages.body })
      .from(systemMessages)
      .orderBy(desc(systemMessages.id))
      .limit(1);
    const [row] = await tx
      .insert(systemMessages)
      .values({ body, createdByUserId: auth.user.id })
      .returning({ id: systemMessages.id });
    await recordChange(tx, {
      clientId: null,
      action: "system_message.update",
      recordKind: "system_message",
      recordId: row?.id ?? 0,
      before: { system_message: before?.body ?? "" },
      after: { system_message: body },
    });
  });
  return getMessages(db, auth);
}
