import { and, desc, eq, ne, sql, type SQL } from "drizzle-orm";
import {
  closedPeriodEventSchema,
  closedPeriodMessage,
  firstOpenDate,
  inClosedPeriod,
  usDate,
  type ClosedPeriod,
  type ClosePeriod,
  type ReopenPeriod,
} from "@cyclebill/domain";
import { z } from "zod";
import { businessToday } from "../../clock.js";
import type { Database, Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbInt, dbText, dbTimestamp } from "../../db/row-schemas.js";
import { closedPeriodEvents } from "../../db/tables.js";
import { setBooksClosedThrough } from "../clients/client-cycle-figures.js";
import type { AuthUser } from "../../http/auth-context.js";
import { fieldError, nonFieldError, notFound } from "../../http/errors.js";
import { recordChange } from "../audit/record-change.js";

// Closed periods. A production run's statements close a client's books through the run date
// (clients.books_closed_through); from then on no entry dated on or before it may be posted, changed
// or removed, from any path: the ledger writers call assertOpenPeriod under the customer locks.
//
// Concurrency: the run closes the books in its plan step, before any statement exists, and the
// ledger writers read the date (a plain read, no lock on clients: issue 30's deadlock) after they
// have locked their customers. A posting that read the date before the plan committed holds its
// customers' locks, so the chunk that makes those customers' statements waits for it and bills the
// entry; a posting that reads after sees the closed date and is refused. Nothing slips in between.

const closedRowSchema = z.object({ closed: dbDate.nullable() });

/** The client's closed-through date (null: nothing closed). */
export async function booksClosedThrough(tx: Executor, clientId: number): Promise<string | null> {
  const [row] = await queryRows(
    tx,
    sql`select books_closed_through::text as closed from clients where id = ${clientId}`,
    closedRowSchema,
  );
  return row?.closed ?? null;
}

const beforeRowSchema = z.object({ before: dbDate.nullable() });

/**
 * The closed-through date a run's own postings are held to: the value before the run closed the
 * books (its recurring charges and late fees belong to the period it is closing).
 */
async function closedBeforeRun(tx: Executor, clientId: number, productionRunId: number) {
  const [row] = await queryRows(
    tx,
    sql`select closed_through_before::text as before from closed_period_events
        where client_id = ${clientId} and production_run_id = ${productionRunId} and action = 'run'`,
    beforeRowSchema,
  );
  return row ? row.before : undefined;
}

export type DatedEntry = {
  serviceDate: string;
  productionRunId?: number | null;
  /**
   * Dated by the clock, not by the user (a payment received, autopay, a void or reversal, an entry
   * left to default to today): on a day the books are already closed through (a run's day) it takes
   * the first open day instead of being refused, as a bank posts after its cut-off.
   */
  datedToday?: boolean;
};

/**
 * The entries' service dates in the open period: refuses (400, naming the closed date) when a date
 * the user chose lies in the client's closed period; a date of the clock moves to the first open
 * day. The caller holds the customers' locks. An entry of the run that is closing the books is held
 * to the date before that run.
 */
export async function openPeriodDates(
  tx: Executor,
  clientId: number,
  entries: readonly DatedEntry[],
): Promise<string[]> {
  const dates = entries.map((entry) => entry.serviceDate);
  if (entries.length === 0) return dates;
  const closed = await booksClosedThrough(tx, clientId);
  if (closed === null) return dates;
  const firstOpen = firstOpenDate(closed) ?? closed;
  for (const [index, entry] of entries.entries())
    if (entry.datedToday && entry.productionRunId == null && inClosedPeriod(entry.serviceDate, closed))
      dates[index] = firstOpen;
  await assertOpenPeriod(
    tx,
    clientId,
    entries.map((entry, index) => ({ ...entry, serviceDate: dates[index] as string })),
    closed,
  );
  return dates;
}

/**
 * Refuses (400, naming the closed date) when any of the dates lies in the client's closed period.
 * The caller holds the customers' locks. An entry of the run that is closing the books is held to
 * the date before that run.
 */
export async function assertOpenPeriod(
  tx: Executor,
  clientId: number,
  entries: readonly DatedEntry[],
  known?: string | null,
): Promise<void> {
  if (entries.length === 0) return;
  const closed = known === undefined ? await booksClosedThrough(tx, clientId) : known;
  if (closed === null) return;
  const bounds = new Map<number, string | null>();
  for (const entry of entries) {
    let bound: string | null = closed;
    if (entry.productionRunId != null) {
      if (!bounds.has(entry.productionRunId)) {
        const before = await closedBeforeRun(tx, clientId, entry.productionRunId);
        bounds.set(entry.productionRunId, before === undefined ? closed : before);
      }
      bound = bounds.get(entry.productionRunId) ?? null;
    }
    if (inClosedPeriod(entry.serviceDate, bound))
      throw fieldError("service_date", closedPeriodMessage(closed));
  }
}

/**
 * THE function that closes a client's books when a production run issues its statements (called in
 * the run part's plan step): books_closed_through becomes the run date (never moves back), and the
 * value before is recorded on a "run" event, once per run part, so undoing the part can restore it
 * (restoreBooksBeforeRun).
 */
export async function closeBooksForRun(
  tx: Executor,
  input: { clientId: number; productionRunId: number; runDate: string; userId: number | null },
): Promise<void> {
  const [existing] = await tx
    .select({ id: closedPeriodEvents.id })
    .from(closedPeriodEvents)
    .where(
      and(
        eq(closedPeriodEvents.clientId, input.clientId),
        eq(closedPeriodEvents.productionRunId, input.productionRunId),
        eq(closedPeriodEvents.action, "run"),
      ),
    );
  if (existing) return; // a resumed part closed them already
  const before = await booksClosedThrough(tx, input.clientId);
  const after = before !== null && before > input.runDate ? before : input.runDate;
  await setBooksClosedThrough(tx, input.clientId, after);
  await tx.insert(closedPeriodEvents).values({
    clientId: input.clientId,
    action: "run",
    closedThroughBefore: before,
    closedThroughAfter: after,
    reason: `Statements of ${usDate(input.runDate)}`,
    productionRunId: input.productionRunId,
    userId: input.userId,
  });
}

/** The client's newest change of its closed-through date that meets the conditions. */
async function latestEvent(tx: Executor, clientId: number, ...conditions: SQL[]) {
  const [event] = await tx
    .select()
    .from(closedPeriodEvents)
    .where(and(eq(closedPeriodEvents.clientId, clientId), ...conditions))
    .orderBy(desc(closedPeriodEvents.id))
    .limit(1);
  return event;
}

/**
 * For undoing a run part: puts books_closed_through back to its value before the part closed it
 * (when no later change moved it since), before the part's entries are removed. Returns the date.
 */
export async function restoreBooksBeforeRun(
  tx: Executor,
  clientId: number,
  productionRunId: number,
): Promise<string | null> {
  const event = await latestEvent(
    tx,
    clientId,
    eq(closedPeriodEvents.productionRunId, productionRunId),
    eq(closedPeriodEvents.action, "run"),
  );
  const current = await booksClosedThrough(tx, clientId);
  if (!event || current !== event.closedThroughAfter) return current;
  await setBooksClosedThrough(tx, clientId, event.closedThroughBefore);
  return event.closedThroughBefore;
}

/** A history row as the query returns it: the event's action and reason, its other columns as read. */
const eventRowSchema = closedPeriodEventSchema.pick({ action: true, reason: true }).extend({
  id: dbInt,
  before: dbDate.nullable(),
  after: dbDate.nullable(),
  production_run_id: dbInt.nullable(),
  user_name: dbText.nullable(),
  username: dbText.nullable(),
  created_at: dbTimestamp,
});

/** Where a reopen without a date leaves the books: closed through the date before the change that closed them last. */
async function defaultReopenTarget(db: Executor, clientId: number, current: string): Promise<string | null> {
  const last = await latestEvent(
    db,
    clientId,
    eq(closedPeriodEvents.closedThroughAfter, current),
    ne(closedPeriodEvents.action, "reopen"),
  );
  return last?.closedThroughBefore ?? null;
}

const statementCountRowSchema = z.object({ count: dbInt });

/** What a reopen without a date would open: its date, and the sent statements dated in the period. */
async function reopenPreview(db: Executor, clientId: number, current: string | null) {
  if (current === null) return null;
  const target = await defaultReopenTarget(db, clientId, current);
  const [row] = await queryRows(
    db,
    sql`select count(*) as count from statements
        where client_id = ${clientId} and statement_date <= ${current}::date
          and (${target}::date is null or statement_date > ${target}::date)`,
    statementCountRowSchema,
  );
  return { closed_through: target, statements: row?.count ?? 0 };
}

/** A client's closed-through date and every change of it, newest first (404: no such client). */
export async function getClosedPeriod(db: Executor, clientId: number): Promise<ClosedPeriod> {
  const [client] = await queryRows(
    db,
    sql`select books_closed_through::text as closed from clients where id = ${clientId}`,
    closedRowSchema,
  );
  if (!client) throw notFound();
  const rows = await queryRows(
    db,
    sql`select e.id, e.action, e.closed_through_before::text as before, e.closed_through_after::text as after,
               e.reason, e.production_run_id, e.created_at,
               nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as user_name,
               u.username
        from closed_period_events e left join users u on u.id = e.user_id
        where e.client_id = ${clientId} order by e.created_at desc, e.id desc limit 100`,
    eventRowSchema,
  );
  return {
    client_id: clientId,
    books_closed_through: client.closed,
    reopen: await reopenPreview(db, clientId, client.closed),
    history: rows.map((row) => ({
      id: row.id,
      action: row.action,
      closed_through_before: row.before,
      closed_through_after: row.after,
      reason: row.reason,
      production_run_id: row.production_run_id,
      user: row.user_name ?? row.username,
      created_at: new Date(row.created_at).toISOString(),
    })),
  };
}

async function lockedClosedThrough(tx: Executor, clientId: number): Promise<string | null> {
  const [row] = await queryRows(
    tx,
    sql`select books_closed_through::text as closed from clients where id = ${clientId} for no key update`,
    closedRowSchema,
  );
  if (!row) throw notFound();
  return row.closed;
}

async function setClosedThrough(
  tx: Executor,
  clientId: number,
  change: {
    action: "reopen" | "close";
    before: string | null;
    after: string | null;
    reason: string;
    userId: number;
  },
) {
  await setBooksClosedThrough(tx, clientId, change.after, true);
  await tx.insert(closedPeriodEvents).values({
    clientId,
    action: change.action,
    closedThroughBefore: change.before,
    closedThroughAfter: change.after,
    reason: change.reason,
    userId: change.userId,
  });
  await recordChange(tx, {
    clientId,
    action: `closed_period.${change.action}`,
    recordKind: "client",
    recordId: clientId,
    before: { closed_through: change.before },
    after: { closed_through: change.after },
    reason: change.reason || null,
  });
}

/**
 * Reopens a client's books (admins): they stay closed only through `closed_through` (default: the
 * date before the change that closed them last; null opens everything), with the reason recorded.
 */
export async function reopenPeriod(
  db: Database,
  user: AuthUser,
  clientId: number,
  input: ReopenPeriod,
): Promise<ClosedPeriod> {
  await db.transaction(async (tx) => {
    const current = await lockedClosedThrough(tx, clientId);
    if (current === null) throw nonFieldError("The books are not closed: there is nothing to reopen.");
    let target: string | null;
    if (input.closed_through !== undefined) target = input.closed_through;
    else target = await defaultReopenTarget(tx, clientId, current);
    if (target !== null && target >= current)
      throw fieldError(
        "closed_through",
        `Reopening keeps the books closed through an earlier date than ${usDate(current)}.`,
      );
    await setClosedThrough(tx, clientId, {
      action: "reopen",
      before: current,
      after: target,
      reason: input.reason,
      userId: user.id,
    });
  });
  return getClosedPeriod(db, clientId);
}

/**
 * Closes a client's books again (admins): through `closed_through`, by default the date they were
 * closed through before the last reopen; never later than today, never earlier than now.
 */
export async function closePeriod(
  db: Database,
  user: AuthUser,
  clientId: number,
  input: ClosePeriod,
): Promise<ClosedPeriod> {
  await db.transaction(async (tx) => {
    const current = await lockedClosedThrough(tx, clientId);
    let target = input.closed_through ?? null;
    if (target === null) {
      const [last] = await tx
        .select({ before: closedPeriodEvents.closedThroughBefore })
        .from(closedPeriodEvents)
        .where(and(eq(closedPeriodEvents.clientId, clientId), eq(closedPeriodEvents.action, "reopen")))
        .orderBy(desc(closedPeriodEvents.id))
        .limit(1);
      target = last?.before ?? null;
    }
    if (target === null) throw fieldError("closed_through", "Give the date to close the books through.");
    if (current !== null && target <= current)
      throw fieldError("closed_through", `The books are already closed through ${usDate(current)}.`);
    if (target > businessToday())
      throw fieldError(
        "closed_through",
        `The books can't be closed past today (${usDate(businessToday())}).`,
      );
    await setClosedThrough(tx, clientId, {
      action: "close",
      before: current,
      after: target,
      reason: input.reason ?? "",
      userId: user.id,
    });
  });
  return getClosedPeriod(db, clientId);
}
