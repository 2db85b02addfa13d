import { and, asc, eq, sql } from "drizzle-orm";
import { productionFiguresSchema, startsNewFiscalYear, type BillingPeriod } from "@cyclebill/domain";
import { z } from "zod";
import type { Database, Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbInt } from "../../db/row-schemas.js";
import { clients, customers, productionRuns } from "../../db/tables.js";
import { finishJobRun, planJobRun, type JobRunKey } from "../jobs/job-runs.js";
import { carryChunks, chunkResults, runChunk, type ChunkResult } from "../jobs/record-chunk.js";
import { closeBooksForRun } from "../ledger/closed-period.js";
import { recordClientCycle } from "../clients/client-cycle-figures.js";
import { lockCustomers } from "../ledger/lock-customers.js";
import { addFigures, figuresOf, planCustomers, withAllReasons } from "./plan-production.js";
import { untimed, writeChunk, type PhaseTimer } from "./write-production.js";
import { createRunDeliveries } from "../delivery/create-pools.js";
import type { EnqueueDeliveryJobs } from "../delivery/delivery-jobs.js";
import { startAutopayRun, type EnqueueCardRunChunks } from "../payments/start-card-run.js";

/** The job's stable id: the kind of each client's job run and its pg-boss queue name. */
export const PRODUCTION_RUN_JOB = "production-run";

/** A client's part of a run: a plan step, then one step per chunk of customers. */
export type ProductionStep =
  | {
      step: "plan";
      clientId: number;
      runId: number;
      productionRunId: number;
      chunkSize: number;
      /** The failed job run of this part that this one resumes. */
      resumeFrom?: number;
    }
  | {
      step: "chunk";
      clientId: number;
      runId: number;
      productionRunId: number;
      chunkNo: number;
      customerIds: number[];
    };

export type EnqueueProductionSteps = (
  tx: Executor,
  steps: readonly { payload: ProductionStep; priority?: number }[],
) => Promise<void>;

/** Where a run's steps go, and the jobs its last step starts: delivery (pools, emails) and autopay. */
export type ProductionQueues = {
  steps: EnqueueProductionSteps;
  delivery: EnqueueDeliveryJobs;
  cardRuns: EnqueueCardRunChunks;
};

const PRODUCING = "producing statements";

type ProductionRunRow = typeof productionRuns.$inferSelect;

async function readRun(tx: Executor, clientId: number, productionRunId: number): Promise<ProductionRunRow> {
  const [row] = await tx
    .select()
    .from(productionRuns)
    .where(and(eq(productionRuns.clientId, clientId), eq(productionRuns.id, productionRunId)));
  if (!row) throw new Error(`production run ${clientId}/${productionRunId} not found`);
  return row;
}

function periodOf(run: ProductionRunRow): BillingPeriod {
  const days = Math.round((Date.parse(run.periodEnd) - Date.parse(run.periodStart)) / 86_400_000) + 1;
  return { start: run.periodStart, end: run.periodEnd, days };
}

/** Does one step of a client's production run; a replayed step does nothing twice. */
export async function runProductionStep(
  db: Database,
  step: ProductionStep,
  queues: ProductionQueues,
  time: PhaseTimer = untimed,
): Promise<void> {
  const key: JobRunKey = { clientId: step.clientId, runId: step.runId };
  if (step.step === "plan") {
    await time("plan", () => planClientRun(db, key, step, queues));
    return;
  }
  await runChunk(
    db,
    { ...key, chunkNo: step.chunkNo },
    async (tx) => {
      const run = await readRun(tx, step.clientId, step.productionRunId);
      // Lock order as everywhere: the client row, then the customers by id. Chunks share the client
      // row (FOR SHARE), so several workers run one client's chunks at once; staff numbering invoices
      // or statements (FOR UPDATE) wait for them, and the chunks number statements one at a time
      // under lockStatementNumbers.
      const [client] = await tx.select().from(clients).where(eq(clients.id, step.clientId)).for("share");
      if (!client) throw new Error(`client ${step.clientId} not found`);
      await lockCustomers(tx, step.clientId, step.customerIds);
      const plans = await time("plan", () =>
        planCustomers(tx, client, {
          period: periodOf(run),
          productionRunId: run.id,
          customerIds: step.customerIds,
        }),
      );
      const written = await writeChunk(
        tx,
        {
          clientId: step.clientId,
          productionRunId: run.id,
          runDate: run.runDate,
          customerIds: step.customerIds,
        },
        plans,
        time,
      );
      return {
        done: step.customerIds.length,
        result: {
          figures: figuresOf(plans),
          invoices_processed: written.invoicesProcessed,
          // The chunk's customers are a range of ids: a resumed part plans the customers outside.
          first_customer_id: Math.min(...step.customerIds),
          last_customer_id: Math.max(...step.customerIds),
          restore: written.restore,
        },
      };
    },
    {
      step: PRODUCING,
      summarize: summarizeProduction,
      onFinish: (tx, chunks) =>
        time("bookkeeping", () => finishClientRun(tx, step.clientId, step.productionRunId, chunks, queues)),
    },
  );
}

/** The customer-id ranges recorded chunks covered. */
function coveredRanges(chunks: readonly ChunkResult[]): [number, number][] {
  return chunks.flatMap((chunk) => {
    const first = Number(chunk.result.first_customer_id);
    const last = Number(chunk.result.last_customer_id);
    return Number.isFinite(first) && Number.isFinite(last) ? [[first, last] as [number, number]] : [];
  });
}

/**
 * Splits the client's customers (by id) into chunks and enqueues them, in the transaction that
 * records the plan: a replayed plan finds the run planned and enqueues nothing. A part resuming a
 * failed job run carries that run's recorded chunks over and plans only the customers they did not
 * cover, numbering its chunks after theirs.
 */
async function planClientRun(
  db: Database,
  key: JobRunKey,
  step: Extract<ProductionStep, { step: "plan" }>,
  queues: ProductionQueues,
) {
  const { productionRunId, chunkSize, resumeFrom } = step;
  await db.transaction(async (tx) => {
    let carried: ChunkResult[] = [];
    if (resumeFrom !== undefined) {
      // After any chunk of the failed run still in its transaction (they hold the client row shared).
      await tx.select({ id: clients.id }).from(clients).where(eq(clients.id, key.clientId)).for("update");
      carried = await chunkResults(tx, { clientId: key.clientId, runId: resumeFrom });
    }
    const ranges = coveredRanges(carried);
    const rows = await tx
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.clientId, key.clientId), eq(customers.deleted, false)))
      .orderBy(asc(customers.id));
    const ids = rows
      .map((row) => row.id)
      .filter((id) => !ranges.some(([first, last]) => id >= first && id <= last));
    const chunks: number[][] = [];
    for (let start = 0; start < ids.length; start += chunkSize)
      chunks.push(ids.slice(start, start + chunkSize));
    const firstChunkNo = carried.reduce((next, chunk) => Math.max(next, chunk.chunkNo + 1), 0);
    const planned = await planJobRun(tx, key, {
      total: ids.length + carried.reduce((sum, chunk) => sum + chunk.done, 0),
      chunkCount: carried.length + chunks.length,
      step: PRODUCING,
    });
    if (!planned) return;
    // The statements this part issues close the client's books through the run date, before any
    // statement exists: see closed-period.ts for why no posting can slip in.
    const run = await readRun(tx, key.clientId, productionRunId);
    await closeBooksForRun(tx, {
      clientId: key.clientId,
      productionRunId,
      runDate: run.runDate,
      userId: run.startedByUserId,
    });
    if (resumeFrom !== undefined) await carryChunks(tx, { clientId: key.clientId, runId: resumeFrom }, key);
    await tx
      .update(productionRuns)
      .set({ status: "running" })
      .where(and(eq(productionRuns.clientId, key.clientId), eq(productionRuns.id, productionRunId)));
    if (chunks.length === 0) {
      await finishClientRun(tx, key.clientId, productionRunId, carried, queues);
      await finishJobRun(tx, key, summarizeProduction(carried));
      return;
    }
    await queues.steps(
      tx,
      chunks.map((customerIds, index) => ({
        payload: { step: "chunk", ...key, productionRunId, chunkNo: firstChunkNo + index, customerIds },
        priority: -index,
      })),
    );
  });
}

function chunkFigures(chunks: readonly ChunkResult[]) {
  return addFigures(
    chunks.map((chunk) => productionFiguresSchema.parse(withAllReasons(chunk.result.figures))),
  );
}

function summarizeProduction(chunks: ChunkResult[]): Record<string, unknown> {
  return {
    figures: chunkFigures(chunks),
    invoices_processed: chunks.reduce((sum, chunk) => sum + Number(chunk.result.invoices_processed ?? 0), 0),
  };
}

/** The client's fiscal year start month and last billing date, before the run sets it. */
const fiscalYearRowSchema = z.object({ fiscalYearResetMonth: dbInt, last: dbDate.nullable() });

/**
 * The client's bookkeeping once its last chunk is done, in that chunk's transaction: cycle ran,
 * billing dates, days in the cycle, year-to-date bills (reset at the fiscal year's start) and this
 * cycle's volume counts on the client's rates; the run's figures. Then the statements go out, and
 * autopay customers are charged their amount due (a card run the part records).
 */
async function finishClientRun(
  tx: Executor,
  clientId: number,
  productionRunId: number,
  chunks: readonly ChunkResult[],
  queues: Pick<ProductionQueues, "delivery" | "cardRuns">,
): Promise<void> {
  const run = await readRun(tx, clientId, productionRunId);
  const figures = chunkFigures(chunks);
  const invoices = chunks.reduce((sum, chunk) => sum + Number(chunk.result.invoices_processed ?? 0), 0);
  const [client] = await queryRows(
    tx,
    sql`select fiscal_year_reset_month as "fiscalYearResetMonth", date_last_billing::text as last
        from clients where id = ${clientId}`,
    fiscalYearRowSchema,
  );
  const reset = startsNewFiscalYear(client?.last ?? null, run.runDate, client?.fiscalYearResetMonth ?? 1);
  const { mail, email, both, pulled } = figures.statements;
  const sent = mail + email + both;
  await recordClientCycle(tx, clientId, {
    runDate: run.runDate,
    days: periodOf(run).days,
    newYear: reset,
    sent,
    invoices,
    mailed: mail + both,
    emailed: email + both,
    pulled,
  });
  await tx
    .update(productionRuns)
    .set({
      status: "done",
      figures,
      statementsCount: mail + email + both + pulled,
      recurringChargesPosted: figures.recurring.count,
      lateFeesPosted: figures.late_fees.count,
      finishedAt: new Date(),
    })
    .where(and(eq(productionRuns.clientId, clientId), eq(productionRuns.id, productionRunId)));
  // The statements go out: pools to print, emails to send, as jobs that commit with this step.
  await queues.delivery(tx, await createRunDeliveries(tx, { clientId, productionRunId }));
  const autopayRunId = await startAutopayRun(tx, { clientId, productionRunId }, queues.cardRuns);
  if (autopayRunId !== null)
    await tx
      .update(productionRuns)
      .set({ autopayJobRunId: autopayRunId })
      .where(and(eq(productionRuns.clientId, clientId), eq(productionRuns.id, productionRunId)));
}
