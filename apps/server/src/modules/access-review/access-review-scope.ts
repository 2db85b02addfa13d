import { eq } from "drizzle-orm";
import { readsOversight } from "@cyclebill/domain";
import type { Executor } from "../../db/database-types.js";
import { clients } from "../../db/tables.js";
import { roleOf, type AuthContext } from "../../http/auth-context.js";
import { forbidden, notFound } from "../../http/errors.js";

export const ACCESS_REVIEW_FORBIDDEN_DETAIL =
  "Only the client's owners and the provider's admins read the access review.";

/** Client 0: a provider-wide review, as the audit trail keeps the provider's own chain. */
export const PROVIDER_WIDE = 0;

/** What a review covers: one client's users, or (clientId null) the admins and every client's users. */
export type AccessReviewScope = { clientId: number | null; clientName: string | null };

/**
 * The scope a reader may review: a provider admin any client (client_id) or provider-wide (none);
 * an owner only their own client (another client answers 404, as everywhere); staff and users of
 * no client none (403), as the audit trail.
 */
export async function readableScope(
  db: Executor,
  auth: AuthContext,
  requested: number | undefined,
): Promise<AccessReviewScope> {
  const { user } = auth;
  if (!user.isAdmin) {
    if (!readsOversight({ role: roleOf(user), clientId: user.clientId }))
      throw forbidden(ACCESS_REVIEW_FORBIDDEN_DETAIL);
    if (requested !== undefined && requested !== user.clientId) throw notFound();
  }
  const clientId = user.isAdmin ? requested : (user.clientId ?? undefined);
  if (clientId === undefined) return { clientId: null, clientName: null };
  const [client] = await db
    .select({ name: clients.clientName })
    .from(clients)
    .where(eq(clients.id, clientId))
    .limit(1);
  if (!client) throw notFound();
  return { clientId, clientName: client.name };
}

/** The scope in words, for the CSV's first line and the trail. */
export function scopeLabel(scope: AccessReviewScope): string {
  return scope.clientId === null
    ? "Provider-wide"
    : `${scope.clientName ?? "Client"} (client ${scope.clientId})`;
}
