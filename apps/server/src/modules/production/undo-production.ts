import { and, eq, sql } from "drizzle-orm";
import type { JobRun } from "@cyclebill/domain";
import type { Database, Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { clients, jobRuns, productionRuns } from "../../db/tables.js";
import type { AuthUser } from "../../http/auth-context.js";
import { HttpError, notFound } from "../../http/errors.js";
import { createJobRun, getJobRun, planJobRun } from "../jobs/job-runs.js";
import { chunkResults, runChunk } from "../jobs/record-chunk.js";
import { removePoolFiles } from "../delivery/pool-files.js";
import { removeEntries } from "../ledger/remove-entries.js";
import { reopenStatements } from "../ledger/reopen-statements.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import type { ChunkRestore } from "./write-production.js";

/** The job's stable id: the kind of its job run and its pg-boss queue name. */
export const PRODUCTION_UNDO_JOB = "production-undo";

export type ProductionUndoStep = { clientId: number; runId: number; productionRunId: number };

export type EnqueueProductionUndo = (tx: Executor, payload: ProductionUndoStep) => Promise<void>;

type PartKey = { clientId: number; productionRunId: number };

/** What of a part has gone out: emails the SMTP server accepted (or is being handed), pools downloaded, cards charged. */
async function deliveryStarted(tx: Executor, part: PartKey): Promise<string[]> {
  const { clientId, productionRunId } = part;
  const [emails] = await queryRows<{ sent: string | number; sending: string | number }>(
    tx,
    sql`select count(*) filter (where status = 'sent') as sent, count(*) filter (where status = 'sending') as sending
        from statement_deliveries where client_id = ${clientId} and production_run_id = ${productionRunId}`,
  );
  const pools = await queryRows<{ pool_name: string }>(
    tx,
    sql`select pool_name from pools where client_id = ${clientId} and production_run_id = ${productionRunId}
          and downloaded_at is not null order by pool_name`,
  );
  const [cards] = await queryRows<{ attempts: string | number }>(
    tx,
    sql`select count(*) as attempts from payment_attempts a
        join production_runs p on p.client_id = a.client_id and p.autopay_job_run_id = a.card_run_id
        where p.client_id = ${clientId} and p.id = ${productionRunId}`,
  );
  const out: string[] = [];
  const sent = Number(emails?.sent ?? 0);
  const sending = Number(emails?.sending ?? 0);
  if (sent > 0) out.push(`${sent} email${sent === 1 ? "" : "s"} accepted by the mail server`);
  if (sending > 0) out.push(`${sending} email${sending === 1 ? "" : "s"} being sent`);
  for (const pool of pools) out.push(`pool ${pool.pool_name} downloaded`);
  const attempts = Number(cards?.attempts ?? 0);
  if (attempts > 0) out.push(`${attempts} autopay card charge${attempts === 1 ? "" : "s"} made`);
  return out;
}

export class DeliveryStartedError extends HttpError {
  constructor(what: readonly string[]) {
    super(409, {
      detail: `Delivery has started (${what.join("; ")}): this run can no longer be undone.`,
      went_out: [...what],
    });
  }
}

/**
 * Asks for one client's part of a run to be undone: checks that the part finished, is not undone
 * and nothing of it went out, then records who asked and queues the undo job (202 with its job run).
 * Asking again while that job is queued or running answers the same job run.
 */
export async function requestProductionUndo(
  db: Database,
  user: AuthUser,
  input: { cycleRunId: number; clientId: number },
  enqueue: EnqueueProductionUndo,
): Promise<JobRun> {
  const jobId = await db.transaction(async (tx) => {
    const [part] = await tx
      .select()
      .from(productionRuns)
      .where(
        and(eq(productionRuns.clientId, input.clientId), eq(productionRuns.cycleRunId, input.cycleRunId)),
      )
      .for("update");
    if (!part) throw notFound();
    if (part.undoneAt)
      throw new HttpError(409, { detail: "This client's part of the run is already undone." });
    if (part.undoJobRunId !== null) {
      const [job] = await tx
        .select({ status: jobRuns.status })
        .from(jobRuns)
        .where(and(eq(jobRuns.clientId, part.clientId), eq(jobRuns.id, part.undoJobRunId)));
      if (job && (job.status === "queued" || job.status === "running")) return part.undoJobRunId;
    }
    if (part.status !== "done")
      throw new HttpError(409, {
        detail: "This client's part of the run has not finished; undo it once it is done.",
      });
    const out = await deliveryStarted(tx, { clientId: part.clientId, productionRunId: part.id });
    if (out.length > 0) throw new DeliveryStartedError(out);
    const job = await createJobRun(tx, { clientId: part.clientId, user }, PRODUCTION_UNDO_JOB);
    await tx
      .update(productionRuns)
      .set({ undoJobRunId: job.id, undoRequestedByUserId: user.id })
      .where(and(eq(productionRuns.clientId, part.clientId), eq(productionRuns.id, part.id)));
    await enqueue(tx, { clientId: part.clientId, runId: job.id, productionRunId: part.id });
    return job.id;
  });
  return getJobRun(db, { clientId: input.clientId, user }, jobId);
}

type ClientBefore = {
  cycle_ran: boolean;
  days_in_last_cycle: number;
  date_first_billing: string | null;
  date_last_billing: string | null;
  date_this_billing: string | null;
  number_bills_sent_ytd: number;
  number_bi_sent_ytd: number;
  number_mailed_bills: number;
  number_emailed_bills: number;
  number_pulled_bills: number;
  number_bill_overflows: number;
  books_closed_through: string | null;
};

const UNDOING = "undoing the run";

/**
 * The undo job: one transaction that takes the whole part back, recorded as the job run's one
 * chunk, so a worker killed mid-undo rolls it all back and the retried job does it once.
 */
export async function runProductionUndo(
  db: Database,
  step: ProductionUndoStep,
  dataDir: string,
): Promise<void> {
  const key = { clientId: step.clientId, runId: step.runId };
  const [count] = await queryRows<{ statements: string | number }>(
    db,
    sql`select count(*) as statements from statements
        where client_id = ${step.clientId} and production_run_id = ${step.productionRunId}`,
  );
  await db.transaction((tx) =>
    planJobRun(tx, key, { total: Number(count?.statements ?? 0), chunkCount: 1, step: UNDOING }),
  );
  const poolNames: string[] = [];
  await runChunk(
    db,
    { ...key, chunkNo: 0 },
    async (tx) => {
      const result = await undoPart(tx, step, poolNames);
      return { done: result.statements, result };
    },
    { step: UNDOING, summarize: (chunks) => chunks[0]?.result ?? {} },
  );
  // After the commit: a rolled-back undo must not have lost the pools' files.
  for (const name of poolNames) removePoolFiles(dataDir, name);
}

async function undoPart(
  tx: Executor,
  step: ProductionUndoStep,
  poolNames: string[],
): Promise<{ statements: number; entries: number; pools: number; emails: number }> {
  const { clientId, productionRunId } = step;
  // Lock order as in a run: the client, then (in reopenStatements) its customers by id.
  await tx.select({ id: clients.id }).from(clients).where(eq(clients.id, clientId)).for("update");
  const [part] = await tx
    .select()
    .from(productionRuns)
    .where(and(eq(productionRuns.clientId, clientId), eq(productionRuns.id, productionRunId)))
    .for("update");
  if (!part) throw new Error(`production run ${clientId}/${productionRunId} not found`);
  // The email job marks a delivery "sending" before it talks to the mail server: lock them first.
  await tx.execute(sql`select id from statement_deliveries
    where client_id = ${clientId} and production_run_id = ${productionRunId} for update`);
  const out = await deliveryStarted(tx, { clientId, productionRunId });
  if (out.length > 0) throw new DeliveryStartedError(out);

  const emails = await queryRows<{ id: string | number }>(
    tx,
    sql`delete from statement_deliveries where client_id = ${clientId} and production_run_id = ${productionRunId}
        returning id`,
  );
  const pools = await queryRows<{ pool_name: string; state: string }>(
    tx,
    sql`delete from pools where client_id = ${clientId} and production_run_id = ${productionRunId}
        returning pool_name, state`,
  );
  // A pool still building removes its own files when its next write finds it gone.
  poolNames.push(...pools.filter((pool) => pool.state !== "building").map((pool) => pool.pool_name));
  // The autopay card run has charged nobody (checked above): it stops before its first chunk.
  if (part.autopayJobRunId !== null)
    await tx
      .update(jobRuns)
      .set({
        status: "failed",
        step: "failed",
        error: "Its production run was undone.",
        finishedAt: new Date(),
      })
      .where(
        and(
          eq(jobRuns.clientId, clientId),
          eq(jobRuns.id, part.autopayJobRunId),
          sql`${jobRuns.status} in ('queued', 'running')`,
        ),
      );

  // The client's billing dates, counters and closed-through date first: the closed period the run's
  // statements made must be open again before its entries can leave the ledger.
  const before = part.clientBefore as ClientBefore | null;
  if (before)
    await tx
      .update(clients)
      .set({
        cycleRan: before.cycle_ran,
        daysInLastCycle: before.days_in_last_cycle,
        dateFirstBilling: before.date_first_billing,
        dateLastBilling: before.date_last_billing,
        dateThisBilling: before.date_this_billing,
        numberBillsSentYtd: before.number_bills_sent_ytd,
        numberBiSentYtd: before.number_bi_sent_ytd,
        numberMailedBills: before.number_mailed_bills,
        numberEmailedBills: before.number_emailed_bills,
        numberPulledBills: before.number_pulled_bills,
        numberBillOverflows: before.number_bill_overflows,
        booksClosedThrough: before.books_closed_through,
        updatedAt: new Date(),
      })
      .where(eq(clients.id, clientId));
  const statements = await queryRows<{ id: string | number }>(
    tx,
    sql`select id from statements where client_id = ${clientId} and production_run_id = ${productionRunId}
        order by id`,
  );
  const statementIds = statements.map((row) => Number(row.id));
  const ids = sqlArray(statementIds, "bigint");
  await reopenStatements(tx, clientId, statementIds);
  await tx.execute(sql`update invoices set
      invoice_status = case when closed_at is null then 'open' else 'closed' end,
      statement_id = null, processed_at = null
    where client_id = ${clientId} and statement_id = any(${ids})`);
  const posted = await queryRows<{ id: string | number }>(
    tx,
    sql`select id from transactions where client_id = ${clientId} and production_run_id = ${productionRunId}
          and transaction_type in ('recurring', 'late_fee')`,
  );
  const entries = await removeEntries(
    tx,
    { clientId },
    posted.map((row) => Number(row.id)),
  );
  await tx.execute(sql`delete from statements where client_id = ${clientId} and id = any(${ids})`);

  // The one-month flags and recurring charges' last billed dates the run's chunks changed.
  if (part.jobRunId !== null) {
    for (const chunk of await chunkResults(tx, { clientId, runId: part.jobRunId })) {
      const restore = chunk.result.restore as ChunkRestore | undefined;
      if (!restore) continue;
      for (const flag of ["T", "N"]) {
        const customers = restore.pull.filter(([, pull]) => pull === flag).map(([id]) => id);
        if (customers.length > 0)
          await tx.execute(sql`update customers set pull_flag = ${flag}, updated_at = now()
            where client_id = ${clientId} and id = any(${sqlArray(customers, "bigint")})`);
      }
      if (restore.routeSkip.length > 0)
        await tx.execute(sql`update route_plans set bill_indicator_flag = 'skip'
          where client_id = ${clientId} and customer_id = any(${sqlArray(restore.routeSkip, "bigint")})`);
      if (restore.recurring.length > 0)
        await tx.execute(sql`update recurring_charges r set last_billed_on = b.last_billed_on
          from unnest(${sqlArray(
            restore.recurring.map(([id]) => id),
            "bigint",
          )}, ${sqlArray(
            restore.recurring.map(([, date]) => date),
            "date",
          )}) as b(id, last_billed_on)
          where r.client_id = ${clientId} and r.id = b.id`);
    }
  }

  const result = {
    statements: statementIds.length,
    entries,
    pools: pools.length,
    emails: emails.length,
  };
  await tx
    .update(productionRuns)
    .set({ undoneAt: new Date(), undoneFigures: result })
    .where(and(eq(productionRuns.clientId, clientId), eq(productionRuns.id, productionRunId)));
  return result;
}
