import { eq } from "drizzle-orm";
import type { Me } from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { clients } from "../../db/tables.js";
import { roleOf, type AuthContext } from "../../http/auth-context.js";

/** GET /api/me/. For an admin, has_blue_pay_key speaks of the client named by client_id, if any. */
export async function describeCurrentUser(
  db: Database,
  auth: AuthContext,
  selectedClientId?: number,
): Promise<Me> {
  const { user } = auth;
  const clientId = user.isAdmin ? (selectedClientId ?? null) : user.clientId;
  const [client] =
    clientId === null
      ? []
      : await db
          .select({
            id: clients.id,
            clientNo: clients.clientNo,
            clientName: clients.clientName,
            secret: clients.bluepaySecretKeyEncrypted,
          })
          .from(clients)
          .where(eq(clients.id, clientId))
          .limit(1);
  const ownClient =
    !user.isAdmin && client
      ? { id: client.id, client_no: client.clientNo, client_name: client.clientName }
      : null;
  return {
    userInfo: {
      id: user.id,
      username: user.username,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      name: `${user.firstName} ${user.lastName}`.trim() || user.email,
      is_client_staff: user.isClientStaff,
      isAdmin: user.isAdmin,
      role: roleOf(user),
      client_id: user.isAdmin ? null : user.clientId,
      client: ownClient,
    },
    has_blue_pay_key: Boolean(client?.secret),
    second_factor_enrolment_required: auth.secondFactorEnrolmentRequired ?? false,
  };
}
