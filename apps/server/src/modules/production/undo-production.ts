import { auditProductionRun } from "./production-audit.js";
import { and, eq, sql } from "drizzle-orm";
import { deliveryStartedMessage, partUndoRefusal, type JobRun } from "@cyclebill/domain";
import { z } from "zod";
import type { Database, Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import { clients, jobRuns, productionRuns } from "../../db/tables.js";
import { ONE_RUN_PULL_FLAGS } from "@cyclebill/domain";
import { clientCycleSnapshotSchema, restoreClientCycle } from "../clients/client-cycle-figures.js";
import { restorePullFlags } from "../customers/pull-flags-after-run.js";
import { restoreRecurringBilled } from "../customers/recurring-billed.js";
import { withdrawRunDelivery } from "../delivery/withdraw-run-delivery.js";
import { wentOutOfPart } from "../delivery/went-out.js";
import { restoreGroupSkip } from "../groups/route-plan-flags-after-run.js";
import { releaseStatementInvoices } from "../invoices/statement-invoices.js";
import { deleteStatements } from "../statements/statement-marks.js";
import type { AuthUser } from "../../http/auth-context.js";
import { HttpError, notFound } from "../../http/errors.js";
import { createJobRun, failJobRun, getJobRun, planJobRun } from "../jobs/job-runs.js";
import { chunkResults, runChunk } from "../jobs/record-chunk.js";
import { removePoolFiles } from "../delivery/pool-files.js";
import { removeEntries } from "../ledger/remove-entries.js";
import { reopenStatements } from "../ledger/reopen-statements.js";
import { chunkRestoreSchema } from "./write-production.js";

/** The job's stable id: the kind of its job run and its pg-boss queue name. */
export const PRODUCTION_UNDO_JOB = "production-undo";

export type ProductionUndoStep = { clientId: number; runId: number; productionRunId: number };

export type EnqueueProductionUndo = (tx: Executor, payload: ProductionUndoStep) => Promise<void>;

type PartKey = { clientId: number; productionRunId: number };

const cardAttemptsRowSchema = z.object({ attempts: dbInt });

/**
 * What of a part has gone out: what went_out records (emails handed to the mail server, pools
 * downloaded, statements paid or viewed through their links; a deleted pool's record stays), and
 * autopay cards charged.
 */
export async function deliveryStarted(tx: Executor, part: PartKey): Promise<string[]> {
  const { clientId, productionRunId } = part;
  const [cards] = await queryRows(
    tx,
    sql`select count(*) as attempts from payment_attempts a
        join production_runs p on p.client_id = a.client_id and p.autopay_job_run_id = a.card_run_id
        where p.client_id = ${clientId} and p.id = ${productionRunId}`,
    cardAttemptsRowSchema,
  );
  // The record of what went out (never removed), then the card run's charges.
  const out = await wentOutOfPart(tx, part);
  const attempts = cards?.attempts ?? 0;
  if (attempts > 0) out.push(`${attempts} autopay card charge${attempts === 1 ? "" : "s"} made`);
  // A corrected version (issue 41) replaced a statement the customer had: the run stands.
  const [corrected] = await queryRows(
    tx,
    sql`select count(*) as attempts from statements
        where client_id = ${clientId} and production_run_id = ${productionRunId} and version > 1`,
    cardAttemptsRowSchema,
  );
  const reissued = corrected?.attempts ?? 0;
  if (reissued > 0) out.push(`${reissued} statement${reissued === 1 ? "" : "s"} reissued as corrected`);
  return out;
}

export class DeliveryStartedError extends HttpError {
  constructor(what: readonly string[]) {
    super(409, {
      detail: deliveryStartedMessage(what),
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
  input: { cycleRunId: number; clientId: number; reason?: string | null },
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
    if (part.undoJobRunId !== null && part.undoneAt === null) {
      const [job] = await tx
        .select({ status: jobRuns.status })
        .from(jobRuns)
        .where(and(eq(jobRuns.clientId, part.clientId), eq(jobRuns.id, part.undoJobRunId)));
      if (job && (job.status === "queued" || job.status === "running")) return part.undoJobRunId;
    }
    // The one rule the part's `actions` are offered by (partActions).
    const finished = part.status === "done";
    const undone = part.undoneAt !== null;
    const wentOut =
      finished && !undone
        ? await deliveryStarted(tx, { clientId: part.clientId, productionRunId: part.id })
        : [];
    const refusal = partUndoRefusal({ finished, undone, undoPending: false, wentOut });
    if (refusal)
      throw wentOut.length > 0 ? new DeliveryStartedError(wentOut) : new HttpError(409, { detail: refusal });
    const job = await createJobRun(tx, { clientId: part.clientId, user }, PRODUCTION_UNDO_JOB);
    await tx
      .update(productionRuns)
      .set({ undoJobRunId: job.id, undoRequestedByUserId: user.id })
      .where(and(eq(productionRuns.clientId, part.clientId), eq(productionRuns.id, part.id)));
    await auditProductionRun(tx, "undo_requested", part, { undo_job_run_id: job.id }, input.reason);
    await enqueue(tx, { clientId: part.clientId, runId: job.id, productionRunId: part.id });
    return job.id;
  });
  return getJobRun(db, { clientId: input.clientId, user }, jobId);
}

const UNDOING = "undoing the run";

const statementCountRowSchema = z.object({ statements: dbInt });
const idRowSchema = z.object({ id: dbInt });

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
  const [count] = await queryRows(
    db,
    sql`select count(*) as statements from statements
        where client_id = ${step.clientId} and production_run_id = ${step.productionRunId}`,
    statementCountRowSchema,
  );
  await db.transaction((tx) =>
    planJobRun(tx, key, { total: count?.statements ?? 0, chunkCount: 1, step: UNDOING }),
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
  // The email job and the pay page claim what goes out (went_out) under a share lock of this row:
  // with it held for update, no claim is being made, and one made before is read here.
  const out = await deliveryStarted(tx, { clientId, productionRunId });
  if (out.length > 0) throw new DeliveryStartedError(out);

  const { emails, pools } = await withdrawRunDelivery(tx, { clientId, productionRunId });
  // A pool still building removes its own files when its next write finds it gone.
  poolNames.push(...pools.filter((pool) => pool.state !== "building").map((pool) => pool.pool_name));
  // The autopay card run has charged nobody (checked above): it stops before its first chunk.
  if (part.autopayJobRunId !== null)
    await failJobRun(tx, { clientId, runId: part.autopayJobRunId }, "Its production run was undone.");

  // The client's billing dates, counters and closed-through date first: the closed period the run's
  // statements made must be open again before its entries can leave the ledger.
  const before = part.clientBefore === null ? null : clientCycleSnapshotSchema.parse(part.clientBefore);
  if (before) await restoreClientCycle(tx, clientId, before);
  const statements = await queryRows(
    tx,
    sql`select id from statements where client_id = ${clientId} and production_run_id = ${productionRunId}
        order by id`,
    idRowSchema,
  );
  const statementIds = statements.map((row) => row.id);
  await reopenStatements(tx, clientId, statementIds);
  await releaseStatementInvoices(tx, clientId, statementIds);
  const posted = await queryRows(
    tx,
    sql`select id from transactions where client_id = ${clientId} and production_run_id = ${productionRunId}
          and transaction_type in ('recurring', 'late_fee')`,
    idRowSchema,
  );
  const entries = await removeEntries(
    tx,
    { clientId },
    posted.map((row) => row.id),
  );
  await deleteStatements(tx, clientId, statementIds);

  // The one-month flags and recurring charges' last billed dates the run's chunks changed.
  if (part.jobRunId !== null) {
    for (const chunk of await chunkResults(tx, { clientId, runId: part.jobRunId })) {
      if (chunk.result.restore === undefined) continue;
      const restore = chunkRestoreSchema.parse(chunk.result.restore);
      for (const flag of ONE_RUN_PULL_FLAGS)
        await restorePullFlags(
          tx,
          clientId,
          flag,
          restore.pull.filter(([, pull]) => pull === flag).map(([id]) => id),
        );
      await restoreGroupSkip(tx, clientId, restore.routeSkip);
      await restoreRecurringBilled(tx, clientId, restore.recurring);
    }
  }

  const result = {
    statements: statementIds.length,
    entries,
    pools: pools.length,
    emails,
  };
  await tx
    .update(productionRuns)
    .set({ undoneAt: new Date(), undoneFigures: result })
    .where(and(eq(productionRuns.clientId, clientId), eq(productionRuns.id, productionRunId)));
  await auditProductionRun(tx, "undo", { clientId, id: productionRunId }, result);
  return result;
}
