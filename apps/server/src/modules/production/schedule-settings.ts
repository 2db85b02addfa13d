import { asc, eq } from "drizzle-orm";
import type { ProductionHold, ProductionSchedule, ProductionScheduleList } from "@cyclebill/domain";
import { currentClock } from "../../clock.js";
import type { Database, Executor } from "../../db/database.js";
import { clients, productionHolds, productionSchedules } from "../../db/tables.js";
import type { AuthUser } from "../../http/auth-context.js";
import { notFound } from "../../http/errors.js";
import { recordChange } from "../audit/record-change.js";

type ScheduleRow = typeof productionSchedules.$inferSelect;

function scheduleToApi(row: ScheduleRow): ProductionSchedule {
  return {
    cycle: row.cycle,
    run_time: row.runTime,
    requires_approval: row.requiresApproval,
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function listSchedules(db: Executor): Promise<ProductionScheduleList> {
  const rows = await db.select().from(productionSchedules).orderBy(asc(productionSchedules.cycle));
  return { count: rows.length, results: rows.map(scheduleToApi), time_zone: currentClock().timeZone };
}

/** Sets (or changes) when a cycle day runs by itself; the change is in the provider's trail. */
export async function setSchedule(
  db: Database,
  user: AuthUser,
  cycle: number,
  input: { run_time: string; requires_approval: boolean },
): Promise<ProductionSchedule> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(productionSchedules).where(eq(productionSchedules.cycle, cycle));
    const values = {
      runTime: input.run_time,
      requiresApproval: input.requires_approval,
      updatedByUserId: user.id,
      updatedAt: currentClock().now(),
    };
    const [row] = await tx
      .insert(productionSchedules)
      .values({ cycle, ...values })
      .onConflictDoUpdate({ target: productionSchedules.cycle, set: values })
      .returning();
    if (!row) throw new Error("schedule not saved");
    await recordChange(tx, {
      clientId: null,
      action: before ? "production_schedule.update" : "production_schedule.create",
      recordKind: "production_schedule",
      recordId: cycle,
      before: before ? { run_time: before.runTime, requires_approval: before.requiresApproval } : null,
      after: { run_time: row.runTime, requires_approval: row.requiresApproval },
    });
    return scheduleToApi(row);
  });
}

/** Stops a cycle day from running by itself (runs already started are not touched). */
export async function deleteSchedule(db: Database, cycle: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(productionSchedules)
      .where(eq(productionSchedules.cycle, cycle))
      .returning();
    if (!row) throw notFound();
    await recordChange(tx, {
      clientId: null,
      action: "production_schedule.delete",
      recordKind: "production_schedule",
      recordId: cycle,
      before: { run_time: row.runTime, requires_approval: row.requiresApproval },
      after: null,
    });
  });
}

export async function listHolds(db: Executor): Promise<{ count: number; results: ProductionHold[] }> {
  const rows = await db
    .select({
      clientId: productionHolds.clientId,
      clientName: clients.clientName,
      reason: productionHolds.reason,
      heldAt: productionHolds.heldAt,
    })
    .from(productionHolds)
    .innerJoin(clients, eq(clients.id, productionHolds.clientId))
    .orderBy(asc(productionHolds.clientId));
  const results = rows.map((row) => ({
    client_id: row.clientId,
    client_name: row.clientName,
    reason: row.reason,
    held_at: row.heldAt.toISOString(),
  }));
  return { count: results.length, results };
}

/** Holds a client out of scheduled runs (or changes why); runs started by hand still bill it. */
export async function setHold(
  db: Database,
  user: AuthUser,
  clientId: number,
  reason: string,
): Promise<ProductionHold> {
  return db.transaction(async (tx) => {
    const [client] = await tx
      .select({ id: clients.id, name: clients.clientName })
      .from(clients)
      .where(eq(clients.id, clientId));
    if (!client) throw notFound();
    const [before] = await tx.select().from(productionHolds).where(eq(productionHolds.clientId, clientId));
    const values = { reason, heldByUserId: user.id, heldAt: currentClock().now() };
    const [row] = await tx
      .insert(productionHolds)
      .values({ clientId, ...values })
      .onConflictDoUpdate({ target: productionHolds.clientId, set: values })
      .returning();
    if (!row) throw new Error("hold not saved");
    await recordChange(tx, {
      clientId,
      action: before ? "production_hold.update" : "production_hold.create",
      recordKind: "production_hold",
      recordId: clientId,
      before: before ? { reason: before.reason } : null,
      after: { reason: row.reason },
      reason,
    });
    return {
      client_id: clientId,
      client_name: client.name,
      reason: row.reason,
      held_at: row.heldAt.toISOString(),
    };
  });
}

export async function clearHold(db: Database, clientId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(productionHolds).where(eq(productionHolds.clientId, clientId)).returning();
    if (!row) throw notFound();
    await recordChange(tx, {
      clientId,
      action: "production_hold.delete",
      recordKind: "production_hold",
      recordId: clientId,
      before: { reason: row.reason },
      after: null,
    });
  });
}

/** The held clients among these, with why. */
export async function holdsOf(db: Executor): Promise<Map<number, string>> {
  const rows = await db.select().from(productionHolds);
  return new Map(rows.map((row) => [row.clientId, row.reason]));
}
