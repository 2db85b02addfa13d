import { and, asc, eq, sql } from "drizzle-orm";
import { productionFiguresSchema, startsNewFiscalYear, type BillingPeriod } from "@cyclebill/domain";
import type { Database, Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { clients, customers, productionRuns } from "../../db/tables.js";
import { finishJobRun, planJobRun, type JobRunKey } from "../jobs/job-runs.js";
import { runChunk, type ChunkResult } from "../jobs/record-chunk.js";
import { lockCustomers } from "../ledger/lock-customers.js";
import { addFigures, figuresOf, planCustomers } from "./plan-production.js";
import type { ProductionClientRow } from "./production-inputs.js";
import { writeChunk } from "./write-production.js";

/** The job's stable id: the kind of each client's job run and its pg-boss queue name. */
export const PRODUCTION_RUN_JOB = "production-run";

/** A client's part of a run: a plan step, then one step per chunk of customers. */
export type ProductionStep =
  | { step: "plan"; clientId: number; runId: number; productionRunId: number; chunkSize: number }
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
  enqueue: EnqueueProductionSteps,
): Promise<void> {
  const key: JobRunKey = { clientId: step.clientId, runId: step.runId };
  if (step.step === "plan") {
    await planClientRun(db, key, step.productionRunId, step.chunkSize, enqueue);
    return;
  }
  await runChunk(
    db,
    { ...key, chunkNo: step.chunkNo },
    async (tx) => {
      const run = await readRun(tx, step.clientId, step.productionRunId);
      // Lock order as invoices and statements number: the client row, then the customers by id.
      const [client] = await tx.select().from(clients).where(eq(clients.id, step.clientId)).for("update");
      if (!client) throw new Error(`client ${step.clientId} not found`);
      await lockCustomers(tx, step.clientId, step.customerIds);
      const plans = await planCustomers(tx, client, {
        period: periodOf(run),
        productionRunId: run.id,
        customerIds: step.customerIds,
      });
      const written = await writeChunk(
        tx,
        {
          clientId: step.clientId,
          productionRunId: run.id,
          runDate: run.runDate,
          customerIds: step.customerIds,
        },
        plans,
      );
      return {
        done: step.customerIds.length,
        result: { figures: figuresOf(plans), invoices_processed: written.invoicesProcessed },
      };
    },
    {
      step: PRODUCING,
      summarize: summarizeProduction,
      onFinish: (tx, chunks) => finishClientRun(tx, step.clientId, step.productionRunId, chunks),
    },
  );
}

/**
 * Splits the client's customers (by id) into chunks and enqueues them, in the transaction that
 * records the plan: a replayed plan finds the run planned and enqueues nothing.
 */
async function planClientRun(
  db: Database,
  key: JobRunKey,
  productionRunId: number,
  chunkSize: number,
  enqueue: EnqueueProductionSteps,
) {
  await db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.clientId, key.clientId), eq(customers.deleted, false)))
      .orderBy(asc(customers.id));
    const ids = rows.map((row) => row.id);
    const chunks: number[][] = [];
    for (let start = 0; start < ids.length; start += chunkSize)
      chunks.push(ids.slice(start, start + chunkSize));
    const planned = await planJobRun(tx, key, {
      total: ids.length,
      chunkCount: chunks.length,
      step: PRODUCING,
    });
    if (!planned) return;
    await tx
      .update(productionRuns)
      .set({ status: "running" })
      .where(and(eq(productionRuns.clientId, key.clientId), eq(productionRuns.id, productionRunId)));
    if (chunks.length === 0) {
      await finishClientRun(tx, key.clientId, productionRunId, []);
      await finishJobRun(tx, key, summarizeProduction([]));
      return;
    }
    await enqueue(
      tx,
      chunks.map((customerIds, chunkNo) => ({
        payload: { step: "chunk", ...key, productionRunId, chunkNo, customerIds },
        priority: -chunkNo,
      })),
    );
  });
}

function chunkFigures(chunks: readonly ChunkResult[]) {
  return addFigures(chunks.map((chunk) => productionFiguresSchema.parse(chunk.result.figures)));
}

function summarizeProduction(chunks: ChunkResult[]): Record<string, unknown> {
  return {
    figures: chunkFigures(chunks),
    invoices_processed: chunks.reduce((sum, chunk) => sum + Number(chunk.result.invoices_processed ?? 0), 0),
  };
}

/**
 * The client's bookkeeping once its last chunk is done, in that chunk's transaction: cycle ran,
 * billing dates, days in the cycle, year-to-date bills (reset at the fiscal year's start) and this
 * cycle's volume counts on the client's rates; the run's figures.
 */
async function finishClientRun(
  tx: Executor,
  clientId: number,
  productionRunId: number,
  chunks: readonly ChunkResult[],
): Promise<void> {
  const run = await readRun(tx, clientId, productionRunId);
  const figures = chunkFigures(chunks);
  const invoices = chunks.reduce((sum, chunk) => sum + Number(chunk.result.invoices_processed ?? 0), 0);
  const [client] = await queryRows<
    Pick<ProductionClientRow, "fiscalYearResetMonth"> & { last: string | null }
  >(
    tx,
    sql`select fiscal_year_reset_month as "fiscalYearResetMonth", date_last_billing::text as last
        from clients where id = ${clientId}`,
  );
  const reset = startsNewFiscalYear(client?.last ?? null, run.runDate, client?.fiscalYearResetMonth ?? 1);
  const { mail, email, both, pulled } = figures.statements;
  const sent = mail + email + both;
  await tx
    .update(clients)
    .set({
      cycleRan: true,
      daysInLastCycle: periodOf(run).days,
      dateFirstBilling: sql`coalesce(${clients.dateFirstBilling}, ${run.runDate}::date)`,
      dateLastBilling: run.runDate,
      dateThisBilling: run.runDate,
      numberBillsSentYtd: reset ? sent : sql`${clients.numberBillsSentYtd} + ${sent}`,
      numberBiSentYtd: reset ? invoices : sql`${clients.numberBiSentYtd} + ${invoices}`,
      numberMailedBills: mail + both,
      numberEmailedBills: email + both,
      numberPulledBills: pulled,
      numberBillOverflows: 0,
      updatedAt: new Date(),
    })
    .where(eq(clients.id, clientId));
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
}
