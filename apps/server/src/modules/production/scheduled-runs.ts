import { and, eq, inArray, or } from "drizzle-orm";
import { businessDate, type ScheduledCycle, type ScheduledCycleList } from "@cyclebill/domain";
import { businessToday, currentClock } from "../../clock.js";
import type { Database, Executor } from "../../db/database.js";
import { clients, productionSchedules, scheduledRuns, users, type HeldClient } from "../../db/tables.js";
import type { AuthUser } from "../../http/auth-context.js";
import { HttpError, notFound } from "../../http/errors.js";
import { recordChange } from "../audit/record-change.js";
import { clientsOfCycle } from "./production-inputs.js";
import { getProductionRun } from "./production-runs.js";
import type { EnqueueProductionSteps } from "./run-production.js";
import { holdsOf } from "./schedule-settings.js";
import { startProductionRun } from "./start-production.js";

type ScheduledRunRow = typeof scheduledRuns.$inferSelect;
type Starter = { chunkSize: number; enqueue: EnqueueProductionSteps };

/** The time of day (HH:MM, 24-hour) of an instant in a time zone. */
export function timeOfDay(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(instant);
  const part = (type: "hour" | "minute") => parts.find((candidate) => candidate.type === type)?.value ?? "00";
  return `${part("hour")}:${part("minute")}`;
}

/** The admin cycle whose day a date is (1-28); the 29th to the 31st are no cycle's day. */
function cycleOfDate(date: string): number | null {
  const day = Number(date.slice(8, 10));
  return day >= 1 && day <= 28 ? day : null;
}

async function auditScheduledRun(
  tx: Executor,
  action: string,
  row: ScheduledRunRow,
  before: Record<string, unknown> | null,
): Promise<void> {
  await recordChange(tx, {
    clientId: null,
    action: `scheduled_run.${action}`,
    recordKind: "scheduled_run",
    recordId: row.id,
    before,
    after: {
      cycle: row.cycle,
      run_date: row.runDate,
      state: row.state,
      cycle_run_id: row.cycleRunId,
      held: row.held.map((item) => `${item.clientId}: ${item.reason}`).join("; ") || null,
      error: row.error,
    },
  });
}

async function setState(
  db: Database,
  row: ScheduledRunRow,
  values: Partial<typeof scheduledRuns.$inferInsert>,
  action: string,
): Promise<ScheduledRunRow> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(scheduledRuns)
      .set(values)
      .where(eq(scheduledRuns.id, row.id))
      .returning();
    if (!updated) throw new Error(`scheduled run ${row.id} not found`);
    await auditScheduledRun(tx, action, updated, { state: row.state });
    return updated;
  });
}

/**
 * Starts a claimed scheduled run with the function a run started by hand uses, leaving held clients
 * out. Its Idempotency-Key is the scheduled run's: two workers (or a retry after kill -9) that both
 * get here start one run. A refusal (a run date before a client's last billing) fails it for a person.
 */
async function startScheduledRun(
  db: Database,
  row: ScheduledRunRow,
  user: Pick<AuthUser, "id"> | null,
  starter: Starter,
): Promise<ScheduledRunRow> {
  const holds = await holdsOf(db);
  const cycleClients = await clientsOfCycle(db, row.cycle);
  const held: HeldClient[] = cycleClients
    .filter((client) => holds.has(client.id))
    .map((client) => ({ clientId: client.id, reason: holds.get(client.id) ?? "" }));
  const running = cycleClients.filter((client) => !holds.has(client.id)).map((client) => client.id);
  if (held.length > 0 && running.length === 0)
    return setState(db, row, { state: "held", held, error: null }, "held");
  try {
    const run = await startProductionRun(
      db,
      user,
      {
        cycle: row.cycle,
        runDate: row.runDate,
        clientIds: held.length > 0 ? running : undefined,
        idempotencyKey: `scheduled-run:${row.id}`,
        chunkSize: starter.chunkSize,
      },
      starter.enqueue,
    );
    return setState(db, row, { state: "started", cycleRunId: run.id, held, error: null }, "start");
  } catch (error) {
    if (!(error instanceof HttpError) || error.status >= 500) throw error;
    const message = Object.values(error.body).flat().join(" ") || error.message;
    return setState(db, row, { state: "failed", held, error: message }, "fail");
  }
}

async function scheduleSetter(db: Executor, userId: number | null): Promise<Pick<AuthUser, "id"> | null> {
  if (userId === null) return null;
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  return user ?? null;
}

/**
 * The scheduler's check (every minute, and POST /api/production/scheduled/check/): when today is a
 * scheduled cycle's day and its time has come by the app's clock, claims the cycle's run of today
 * (one row per cycle and date) and starts it, or holds it for approval. A claimed run not yet started
 * (its starter was killed) is started again; the Idempotency-Key keeps it to one run.
 */
export async function checkSchedules(db: Database, starter: Starter): Promise<void> {
  const clock = currentClock();
  const now = clock.now();
  const today = businessDate(now, clock.timeZone);
  const cycle = cycleOfDate(today);
  if (cycle !== null) {
    const [schedule] = await db
      .select()
      .from(productionSchedules)
      .where(eq(productionSchedules.cycle, cycle));
    if (schedule && timeOfDay(now, clock.timeZone) >= schedule.runTime)
      await db.transaction(async (tx) => {
        const [claimed] = await tx
          .insert(scheduledRuns)
          .values({
            cycle,
            runDate: today,
            state: schedule.requiresApproval ? "waiting_approval" : "starting",
            requiresApproval: schedule.requiresApproval,
            createdAt: now,
          })
          .onConflictDoNothing({ target: [scheduledRuns.cycle, scheduledRuns.runDate] })
          .returning();
        if (claimed) await auditScheduledRun(tx, "create", claimed, null);
      });
  }
  const pending = await db.select().from(scheduledRuns).where(eq(scheduledRuns.state, "starting"));
  for (const row of pending) {
    const [schedule] = await db
      .select({ userId: productionSchedules.updatedByUserId })
      .from(productionSchedules)
      .where(eq(productionSchedules.cycle, row.cycle));
    const user = row.approvedByUserId ?? schedule?.userId ?? null;
    await startScheduledRun(db, row, await scheduleSetter(db, user), starter);
  }
}

/** Approves a scheduled run held for approval: it starts as the approving admin's. */
export async function approveScheduledRun(
  db: Database,
  user: AuthUser,
  id: number,
  starter: Starter,
): Promise<ScheduledCycle> {
  const approved = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(scheduledRuns)
      .set({ state: "starting", approvedByUserId: user.id, approvedAt: currentClock().now() })
      .where(and(eq(scheduledRuns.id, id), eq(scheduledRuns.state, "waiting_approval")))
      .returning();
    if (row) await auditScheduledRun(tx, "approve", row, { state: "waiting_approval" });
    return row;
  });
  if (approved) await startScheduledRun(db, approved, user, starter);
  else {
    const [row] = await db.select().from(scheduledRuns).where(eq(scheduledRuns.id, id));
    if (!row) throw notFound();
    // A second press (or another admin's) while it starts or after: the same run, started once.
    if (row.state === "starting") await startScheduledRun(db, row, user, starter);
  }
  const item = (await scheduledItems(db, [id]))[0];
  if (!item) throw notFound();
  return item;
}

const RUN_STATES = { queued: "running", running: "running", done: "done", failed: "failed" } as const;

async function itemOf(
  db: Executor,
  row: ScheduledRunRow,
  runTime: string | null,
  names: Map<number, string>,
): Promise<ScheduledCycle> {
  let state: ScheduledCycle["state"];
  if (row.state === "started" && row.cycleRunId !== null)
    state = RUN_STATES[(await getProductionRun(db, row.cycleRunId)).status];
  else if (row.state === "starting" || row.state === "started") state = "running";
  else state = row.state;
  return {
    id: row.id,
    cycle: row.cycle,
    run_date: row.runDate,
    run_time: runTime,
    requires_approval: row.requiresApproval,
    state,
    cycle_run_id: row.cycleRunId,
    held: row.held.map((item) => ({
      client_id: item.clientId,
      client_name: names.get(item.clientId) ?? "",
      reason: item.reason,
    })),
    error: row.error,
    approved_at: row.approvedAt?.toISOString() ?? null,
  };
}

async function clientNames(db: Executor): Promise<Map<number, string>> {
  const rows = await db.select({ id: clients.id, name: clients.clientName }).from(clients);
  return new Map(rows.map((row) => [row.id, row.name]));
}

async function scheduledItems(db: Executor, ids: number[]): Promise<ScheduledCycle[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(scheduledRuns).where(inArray(scheduledRuns.id, ids));
  const schedules = await db.select().from(productionSchedules);
  const times = new Map(schedules.map((schedule) => [schedule.cycle, schedule.runTime]));
  const names = await clientNames(db);
  return Promise.all(rows.map((row) => itemOf(db, row, times.get(row.cycle) ?? null, names)));
}

/**
 * Today's scheduled cycles and where each stands (due, waiting_approval, running, done, failed,
 * held), and any earlier scheduled run still waiting for approval: what the work queue lists.
 */
export async function listScheduledCycles(db: Executor): Promise<ScheduledCycleList> {
  const today = businessToday();
  const cycle = cycleOfDate(today);
  const rows = await db
    .select()
    .from(scheduledRuns)
    .where(or(eq(scheduledRuns.runDate, today), eq(scheduledRuns.state, "waiting_approval")));
  const schedules = await db.select().from(productionSchedules);
  const times = new Map(schedules.map((schedule) => [schedule.cycle, schedule.runTime]));
  const names = await clientNames(db);
  const results: ScheduledCycle[] = [];
  const todays = schedules.find((schedule) => schedule.cycle === cycle);
  if (todays && cycle !== null && !rows.some((row) => row.runDate === today && row.cycle === cycle)) {
    const holds = await holdsOf(db);
    const cycleClients = await clientsOfCycle(db, cycle);
    results.push({
      id: null,
      cycle,
      run_date: today,
      run_time: todays.runTime,
      requires_approval: todays.requiresApproval,
      state: "due",
      cycle_run_id: null,
      held: cycleClients
        .filter((client) => holds.has(client.id))
        .map((client) => ({
          client_id: client.id,
          client_name: client.clientName,
          reason: holds.get(client.id) ?? "",
        })),
      error: null,
      approved_at: null,
    });
  }
  const sorted = [...rows].sort((a, b) => a.runDate.localeCompare(b.runDate) || a.cycle - b.cycle);
  for (const row of sorted) results.push(await itemOf(db, row, times.get(row.cycle) ?? null, names));
  return { count: results.length, results };
}
