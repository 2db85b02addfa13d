import { auditClient } from "./client-audit.js";
import { eq, max } from "drizzle-orm";
import {
  DOUBLE_BILLING_MESSAGE,
  cycleChangeCausesDoubleBilling,
  isProviderOnlyClientField,
  providerOnlyClientChanges,
  providerOnlyClientMessage,
  type ClientUpdate,
  type clientCreateSchema,
} from "@cyclebill/domain";
import type { z } from "zod";
import type { Database } from "../../db/database.js";
import { pgErrorCode } from "../../db/pg-errors.js";
import { clients } from "../../db/tables.js";
import type { AuthContext } from "../../http/auth-context.js";
import { HttpError, fieldError, forbidden, notFound } from "../../http/errors.js";
import { sealSecret } from "../secrets/secret-box.js";
import { readClientHoldings } from "./client-holdings.js";
import { clientColumnKeyByApiName, clientToApi, type ClientOutput, type ClientRow } from "./client-output.js";
import { businessToday } from "../../clock.js";

type ClientCreate = z.output<typeof clientCreateSchema>;
type ClientFields = Partial<ClientCreate> & Partial<ClientUpdate>;

const WRITE_ONLY = new Set(["bluepay_secret_key", "clear_blue_pay_key"]);
// Kept by the production run, never by the editor.
const SYSTEM_FIELDS = new Set([
  "id",
  "cycle_ran",
  "days_in_last_cycle",
  "date_first_billing",
  "date_last_billing",
  "date_this_billing",
  "number_bills_sent_ytd",
  "number_bi_sent_ytd",
  "created_at",
  "updated_at",
]);

/** Table values from the editor's fields; the provider-only ones only when the writer is an admin. */
function toValues(input: ClientFields, secretsKey: string, isAdmin: boolean): Partial<ClientRow> {
  const values: Record<string, unknown> = {};
  for (const [apiName, value] of Object.entries(input)) {
    if (WRITE_ONLY.has(apiName) || SYSTEM_FIELDS.has(apiName) || value === undefined) continue;
    // Refused before this when changed; an unchanged value sent back is simply not written.
    if (isProviderOnlyClientField(apiName) && !isAdmin) continue;
    const key = clientColumnKeyByApiName.get(apiName);
    if (key) values[key] = value;
  }
  if (!isAdmin) return values as Partial<ClientRow>;
  if (input.clear_blue_pay_key) values.bluepaySecretKeyEncrypted = null;
  if (input.bluepay_secret_key)
    values.bluepaySecretKeyEncrypted = sealSecret(secretsKey, input.bluepay_secret_key);
  return values as Partial<ClientRow>;
}

function duplicateNumber(error: unknown): never {
  if (pgErrorCode(error) === "23505")
    throw fieldError("client_no", "A client with this number already exists.");
  throw error;
}

/** Admins add clients; numbers continue from the highest one (from 1001) unless given. */
export async function createClient(
  db: Database,
  auth: AuthContext,
  secretsKey: string,
  input: ClientCreate,
): Promise<ClientOutput> {
  if (!auth.user.isAdmin) throw forbidden("Only the provider's admins add clients.");
  return db
    .transaction(async (tx) => {
      const [highest] = await tx.select({ value: max(clients.clientNo) }).from(clients);
      const clientNo = input.client_no ?? Math.max(1000, highest?.value ?? 0) + 1;
      const [row] = await tx
        .insert(clients)
        .values({
          ...toValues(input, secretsKey, true),
          clientName: input.client_name,
          clientNo,
        } as typeof clients.$inferInsert)
        .returning();
      if (!row) throw new Error("client not created");
      await auditClient(tx, "client.create", null, row);
      return clientToApi(row);
    })
    .catch(duplicateNumber);
}

/**
 * The client editor's save: admins edit any client and every field; owners edit their own client
 * except the provider-only fields (a change to one is refused with 403 naming it; the stored value
 * sent back is fine); staff only read.
 */
export async function updateClient(
  db: Database,
  auth: AuthContext,
  secretsKey: string,
  id: number,
  input: ClientUpdate,
  today = businessToday(),
): Promise<ClientOutput> {
  const { user } = auth;
  if (!user.isAdmin && user.clientId !== id) throw notFound();
  if (!user.isAdmin && user.isClientStaff)
    throw forbidden("Only the client's owners and the provider's admins edit the client.");
  return db
    .transaction(async (tx) => {
      const [current] = await tx.select().from(clients).where(eq(clients.id, id)).for("update").limit(1);
      if (!current) throw notFound();
      if (!user.isAdmin) {
        const refused = providerOnlyClientChanges(input, clientToApi(current));
        if (refused.length > 0) throw forbidden(providerOnlyClientMessage(refused));
      }
      if (
        cycleChangeCausesDoubleBilling({
          currentCycle: current.normalCycle,
          newCycle: input.normal_cycle ?? current.normalCycle,
          cycleRan: current.cycleRan,
          todayDayOfMonth: Number(today.slice(8, 10)),
        })
      ) {
        throw fieldError("normal_cycle", DOUBLE_BILLING_MESSAGE);
      }
      const [row] = await tx
        .update(clients)
        .set({ ...toValues(input, secretsKey, user.isAdmin), updatedAt: new Date() })
        .where(eq(clients.id, id))
        .returning();
      if (!row) throw notFound();
      await auditClient(tx, "client.update", current, row);
      return clientToApi(row);
    })
    .catch(duplicateNumber);
}

/**
 * Deleting a client removes everything it owns; its users stay, attached to no client. A client
 * holding books (any ledger entry, statement or payment) is refused with 409 naming them: it is
 * made inactive instead. The client row is locked first, so nothing posts between the count and
 * the delete (every insert of a tenant row takes a key-share lock on it).
 */
export async function deleteClient(db: Database, auth: AuthContext, id: number): Promise<void> {
  if (!auth.user.isAdmin) throw forbidden("Only the provider's admins delete clients.");
  await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(clients).where(eq(clients.id, id)).for("update");
    if (!locked) throw notFound();
    const holdings = await readClientHoldings(tx, id);
    if (holdings?.refusal) throw new HttpError(409, { detail: holdings.refusal });
    await tx.delete(clients).where(eq(clients.id, id));
    await auditClient(tx, "client.delete", locked, null);
  });
}
