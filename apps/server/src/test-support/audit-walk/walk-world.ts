import { sql } from "drizzle-orm";
import { queryRows } from "../../db/query-rows.js";
import { z } from "zod";
import type { PaymentFixture } from "../payment-fixture.js";
import type { ApiClient, ApiResponse } from "../test-app.js";
import type { MisbehavingGateway } from "../misbehaving-gateway.js";

// The world the audit walk (modules/audit/audit-walk.test.ts) calls every writing route in: the
// payment fixture (two clients with gateway accounts at a sandbox behind a stand-in that can lose
// an answer), its users, and what earlier steps made for later ones.

export type WalkWorld = PaymentFixture & {
  gw: MisbehavingGateway;
  owner: ApiClient;
  staff: ApiClient;
  admin: ApiClient;
  anonymous: ApiClient;
  clientId: number;
  /** Records earlier steps made, by name. */
  made: Record<string, number>;
  /** Texts earlier steps learned (tokens, pool names), by name. */
  texts: Record<string, string>;
};

/** One writing route and a real call of it that must leave a trail row with this action. */
export type WalkStep = {
  /** "METHOD /path/{id}/" exactly as the OpenAPI document names the operation. */
  route: string;
  /** The trail row the call must leave (an action, or a pattern of actions). */
  action: string | RegExp;
  call: (world: WalkWorld) => Promise<ApiResponse>;
  /** The row is written by the job the call queues, not by the request itself. */
  byJob?: boolean;
  /** Why the row carries no field values (an event, not a change of a record). */
  noValues?: string;
};

/** A writing route that is no write at all, and why. */
export type WalkExemption = { route: string; why: string };

export type TrailRow = {
  client_id: number;
  action: string;
  record_kind: string;
  record_id: string;
  actor_kind: string;
  changes: [string, string | null, string | null][];
};

const trailRowSchema = z.object({
  client_id: z.coerce.number(),
  action: z.string(),
  record_kind: z.string(),
  record_id: z.string(),
  actor_kind: z.string(),
  changes: z.array(z.tuple([z.string(), z.string().nullable(), z.string().nullable()])),
});

/** Where each chain ends now: rows after these are new. */
export async function trailHeads(world: WalkWorld): Promise<Record<string, number>> {
  const rows = await queryRows(
    world.testApp.db,
    sql`select client_id, seq from audit_heads`,
    z.object({ client_id: z.coerce.number(), seq: z.coerce.number() }),
  );
  return Object.fromEntries(rows.map((row) => [String(row.client_id), row.seq]));
}

/** The rows written since `heads`. */
export async function trailSince(world: WalkWorld, heads: Record<string, number>): Promise<TrailRow[]> {
  return queryRows(
    world.testApp.db,
    sql`
    select client_id, action, record_kind, record_id, actor_kind, changes from audit_events
    where seq > coalesce((${JSON.stringify(heads)}::jsonb ->> client_id::text)::bigint, 0)
    order by client_id, seq`,
    trailRowSchema,
  );
}

export const ok = (response: ApiResponse, what: string): ApiResponse => {
  if (response.status >= 300) throw new Error(`${what}: ${response.status} ${response.text.slice(0, 400)}`);
  return response;
};

export const idOf = (response: ApiResponse): number => z.object({ id: z.number() }).parse(response.body).id;
