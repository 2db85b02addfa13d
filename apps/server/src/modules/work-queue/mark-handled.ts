import { and, eq, sql } from "drizzle-orm";
import type { MarkHandled, MarkedHandled } from "@cyclebill/domain";
import { z } from "zod";
import { currentClock } from "../../clock.js";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import { workItemsHandled } from "../../db/tables.js";
import { roleOf, type TenantContext } from "../../http/auth-context.js";
import { forbidden, notFound } from "../../http/errors.js";
import { recordChange } from "../audit/record-change.js";

const foundSchema = z.object({ found: dbInt });

/** Whether the item's record is the client's: a foreign or made-up key answers 404. */
async function itemExists(db: Database, clientId: number, input: MarkHandled): Promise<boolean> {
  if (!/^\d{1,15}$/.test(input.key)) return false;
  const id = Number(input.key);
  const table =
    input.kind === "statement_undeliverable"
      ? sql`production_runs where status = 'done'`
      : input.kind === "email_failed"
        ? sql`statement_deliveries where status = 'failed'`
        : input.kind === "payment_declined"
          ? sql`payment_attempts where status = 'declined'`
          : sql`gateway_events where kind in ('returned', 'charged_back')`;
  const rows = await queryRows(
    db,
    sql`select 1 as found from ${table} and client_id = ${clientId} and id = ${id}`,
    foundSchema,
  );
  return rows.length > 0;
}

/**
 * POST /api/work-queue/handled/: a person marks a return, a decline or a failed email handled
 * (followed up outside Cyclebill), with a note; the item leaves the queue. Owners and admins;
 * marking it again changes nothing.
 */
export async function markHandled(
  db: Database,
  tenant: TenantContext,
  input: MarkHandled,
): Promise<MarkedHandled> {
  if (roleOf(tenant.user) === "staff") throw forbidden();
  if (!(await itemExists(db, tenant.clientId, input))) throw notFound();
  const note = input.note ?? "";
  const createdAt = currentClock().now();
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(workItemsHandled)
      .values({
        clientId: tenant.clientId,
        kind: input.kind,
        key: input.key,
        note,
        userId: tenant.user.id,
        createdAt,
      })
      .onConflictDoNothing()
      .returning({ id: workItemsHandled.id });
    const [row] = inserted;
    if (!row) return;
    await recordChange(tx, {
      clientId: tenant.clientId,
      action: "work_item.handled",
      recordKind: input.kind,
      recordId: input.key,
      before: null,
      after: { kind: input.kind, key: input.key, note },
      reason: note || null,
    });
  });
  const [stored] = await db
    .select()
    .from(workItemsHandled)
    .where(
      and(
        eq(workItemsHandled.clientId, tenant.clientId),
        eq(workItemsHandled.kind, input.kind),
        eq(workItemsHandled.key, input.key),
      ),
    );
  return {
    kind: input.kind,
    key: input.key,
    client_id: tenant.clientId,
    note: stored?.note ?? note,
    created_at: (stored?.createdAt ?? createdAt).toISOString(),
  };
}
