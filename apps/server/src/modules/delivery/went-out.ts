import { sql } from "drizzle-orm";
import { z } from "zod";
import { currentClock } from "../../clock.js";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import { wentOutKinds } from "../../db/tables.js";

// One record of what went out (went_out, migration 0038). Every delivery claims its thing here, in
// the transaction that claims the thing itself, before it goes: the claim takes a share lock of
// the run part, which undo locks for update before it reads these claims, so either undo sees the
// claim and refuses, or the claim sees the part undone and claims nothing. Nothing removes a claim.

export type WentOutKind = (typeof wentOutKinds)[number];

export type WentOutThing = {
  clientId: number;
  productionRunId: number;
  kind: WentOutKind;
  /** The thing within its kind: a statement id (email, view), a pool name, a payment attempt id. */
  ref: string | number;
  statementId?: number | null;
  detail?: string | null;
};

/**
 * - `claimed`: this call claimed it (new, or claimed again after a refusal); send it.
 * - `already`: claimed before and not refused (a second download, a resumed send); the record stands.
 * - `withdrawn`: its run part is undone or gone; it must not go out.
 */
export type WentOutClaim = "claimed" | "already" | "withdrawn";

const partRowSchema = z.object({ undone: z.boolean() });
const claimRowSchema = z.object({ id: dbInt });

/** Claims a thing for delivery under a share lock of its run part (see above). */
export async function claimWentOut(tx: Executor, thing: WentOutThing): Promise<WentOutClaim> {
  const { clientId, productionRunId, kind } = thing;
  const [part] = await queryRows(
    tx,
    sql`select undone_at is not null as undone from production_runs
        where client_id = ${clientId} and id = ${productionRunId} for share`,
    partRowSchema,
  );
  if (!part || part.undone) return "withdrawn";
  const now = currentClock().now();
  const [claimed] = await queryRows(
    tx,
    sql`insert into went_out (client_id, production_run_id, kind, ref, state, statement_id, detail, claimed_at)
        values (${clientId}, ${productionRunId}, ${kind}, ${String(thing.ref)}, 'claimed',
                ${thing.statementId ?? null}, ${thing.detail ?? null}, ${now})
        on conflict (client_id, production_run_id, kind, ref) do update
          set state = 'claimed', claimed_at = excluded.claimed_at, settled_at = null,
              detail = coalesce(excluded.detail, went_out.detail)
          where went_out.state = 'refused'
        returning id`,
    claimRowSchema,
  );
  return claimed ? "claimed" : "already";
}

/** Settles a claim: it went out (`done`), or was refused (an email the server refused, a declined card). */
export async function settleWentOut(
  tx: Executor,
  thing: Pick<WentOutThing, "clientId" | "productionRunId" | "kind" | "ref" | "detail">,
  state: "done" | "refused",
): Promise<void> {
  await tx.execute(
    sql`update went_out set state = ${state}, settled_at = ${currentClock().now()},
                            detail = coalesce(${thing.detail ?? null}, detail)
        where client_id = ${thing.clientId} and production_run_id = ${thing.productionRunId}
          and kind = ${thing.kind} and ref = ${String(thing.ref)}`,
  );
}

const standingRowSchema = z.object({ kind: z.enum(wentOutKinds), count: dbInt, refs: z.array(z.string()) });

const LABELS: Record<WentOutKind, (count: number, refs: string[]) => string> = {
  email: (count) => `${count} statement email${count === 1 ? "" : "s"} handed to the mail server`,
  pool: (_count, refs) => `pool ${refs.join(", ")} downloaded`,
  link_payment: (count) => `${count} payment${count === 1 ? "" : "s"} through a statement's pay link`,
  link_view: (count) => `${count} statement${count === 1 ? "" : "s"} viewed through its pay link`,
};

/**
 * What of a run part went out, as undo's refusal names it: each standing (not refused) claim,
 * counted by kind. The caller holds the part's row for update, so no claim is being made meanwhile.
 */
export async function wentOutOfPart(
  tx: Executor,
  part: { clientId: number; productionRunId: number },
): Promise<string[]> {
  const rows = await queryRows(
    tx,
    sql`select kind, count(*) as count, array_agg(ref order by ref) as refs
        from went_out
        where client_id = ${part.clientId} and production_run_id = ${part.productionRunId}
          and state <> 'refused'
        group by kind order by kind`,
    standingRowSchema,
  );
  return rows.map((row) => LABELS[row.kind](row.count, row.refs));
}
