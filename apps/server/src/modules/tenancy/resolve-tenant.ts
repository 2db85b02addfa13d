import { eq } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { clients } from "../../db/tables.js";
import type { AuthContext, TenantContext } from "../../http/auth-context.js";
import { fieldError, forbidden, notFound } from "../../http/errors.js";

export const CLIENT_REQUIRED_MESSAGE = "Admins must name a client with client_id.";
export const NO_CLIENT_DETAIL =
  "Your account is not attached to a client yet. Ask the billing provider to attach it.";

/**
 * Decides which client a request acts for. Non-admins are locked to their own client:
 * naming any other answers 404, so nothing about other tenants leaks. Admins must name one.
 */
export async function resolveTenant(
  db: Database,
  auth: AuthContext,
  requestedClientId: number | undefined,
): Promise<TenantContext> {
  const { user } = auth;
  if (!user.isAdmin) {
    if (user.clientId === null) throw forbidden(NO_CLIENT_DETAIL);
    if (requestedClientId !== undefined && requestedClientId !== user.clientId) throw notFound();
    return { clientId: user.clientId, user };
  }
  if (requestedClientId === undefined) throw fieldError("client_id", CLIENT_REQUIRED_MESSAGE);
  const [client] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(eq(clients.id, requestedClientId))
    .limit(1);
  if (!client) throw notFound();
  return { clientId: client.id, user };
}
