import { asc, eq, sql } from "drizzle-orm";
import type {
  JobRun,
  LedgerCheckResult,
  LedgerMismatchOutput,
  StatementMismatchOutput,
} from "@cyclebill/domain";
import type { Database, Executor } from "../../db/database.js";
import { customers } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { createJobRun, finishJobRun, planJobRun, type JobRunKey } from "../jobs/job-runs.js";
import { runChunk, type ChunkResult } from "../jobs/record-chunk.js";
import { ledgerMismatches, type LedgerMismatch } from "../ledger/ledger-mismatches.js";
import { statementMismatches, type StatementMismatch } from "../ledger/statement-mismatches.js";

/** The job's stable id: the kind of its runs and its pg-boss queue name. */
export const LEDGER_CHECK_JOB = "ledger-check";

/** A ledger check runs as one plan step, then one step per chunk of customers. */
export type LedgerCheckStep =
  | { step: "plan"; clientId: number; runId: number; chunkSize: number }
  | { step: "chunk"; clientId: number; runId: number; chunkNo: number; customerIds: number[] };

/** Enqueues steps inside the caller's transaction (pg-boss insert over the same connection). */
export type EnqueueSteps = (
  tx: Executor,
  steps: readonly { payload: LedgerCheckStep; priority?: number }[],
) => Promise<void>;

const CHECKING = "checking customers";

/** Queues a check of the client's books: the run and its plan step commit together. */
export async function startLedgerCheck(
  db: Database,
  tenant: TenantContext,
  options: { chunkSize: number },
  enqueue: EnqueueSteps,
): Promise<JobRun> {
  return db.transaction(async (tx) => {
    const run = await createJobRun(tx, tenant, LEDGER_CHECK_JOB);
    await enqueue(tx, [
      { payload: { step: "plan", clientId: tenant.clientId, runId: run.id, chunkSize: options.chunkSize } },
    ]);
    return run;
  });
}

/** Does one step of a ledger check; a replayed step does nothing twice. */
export async function runLedgerCheckStep(
  db: Database,
  step: LedgerCheckStep,
  enqueue: EnqueueSteps,
): Promise<void> {
  const key: JobRunKey = { clientId: step.clientId, runId: step.runId };
  if (step.step === "plan") {
    await planLedgerCheck(db, key, step.chunkSize, enqueue);
    return;
  }
  await runChunk(
    db,
    { ...key, chunkNo: step.chunkNo },
    async (tx) => {
      // Shared locks in id order (the order every money path locks customers): no posting
      // changes a customer between its balance and its ledger being read.
      await tx.execute(
        sql`select id from customers where client_id = ${key.clientId}
            and id = any(${`{${step.customerIds.join(",")}}`}::bigint[]) order by id for share`,
      );
      const mismatches = await ledgerMismatches(tx, {
        clientId: key.clientId,
        customerIds: step.customerIds,
      });
      const statements = await statementMismatches(tx, {
        clientId: key.clientId,
        customerIds: step.customerIds,
      });
      return {
        done: step.customerIds.length,
        result: {
          mismatches: mismatches.map(mismatchToApi),
          statement_mismatches: statements.map(statementMismatchToApi),
        },
      };
    },
    { step: CHECKING, summarize: summarizeLedgerCheck },
  );
}

/**
 * Splits the client's customers (by id) into chunks and enqueues one step per chunk, in the
 * transaction that records the plan: a plan replayed after a crash finds the run planned and
 * enqueues nothing, so chunks are never planned twice.
 */
async function planLedgerCheck(db: Database, key: JobRunKey, chunkSize: number, enqueue: EnqueueSteps) {
  await db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.clientId, key.clientId))
      .orderBy(asc(customers.id));
    const ids = rows.map((row) => row.id);
    const chunks: number[][] = [];
    for (let start = 0; start < ids.length; start += chunkSize)
      chunks.push(ids.slice(start, start + chunkSize));
    const planned = await planJobRun(tx, key, {
      total: ids.length,
      chunkCount: chunks.length,
      step: CHECKING,
    });
    if (!planned) return;
    if (chunks.length === 0) {
      await finishJobRun(tx, key, summarizeLedgerCheck([]));
      return;
    }
    // Lower chunks first (pg-boss takes the highest priority first), so progress runs in id order.
    await enqueue(
      tx,
      chunks.map((customerIds, chunkNo) => ({
        payload: { step: "chunk", ...key, chunkNo, customerIds },
        priority: -chunkNo,
      })),
    );
  });
}

function summarizeLedgerCheck(chunks: readonly ChunkResult[]): LedgerCheckResult {
  return {
    customers_checked: chunks.reduce((sum, chunk) => sum + chunk.done, 0),
    mismatches: chunks.flatMap((chunk) => (chunk.result.mismatches ?? []) as LedgerMismatchOutput[]),
    statement_mismatches: chunks.flatMap(
      (chunk) => (chunk.result.statement_mismatches ?? []) as StatementMismatchOutput[],
    ),
  };
}

function statementMismatchToApi(mismatch: StatementMismatch): StatementMismatchOutput {
  return {
    customer_id: mismatch.customerId,
    statement_id: mismatch.statementId,
    statement_num: mismatch.statementNum,
    statement_date: mismatch.statementDate,
    reasons: mismatch.reasons,
  };
}

function mismatchToApi(mismatch: LedgerMismatch): LedgerMismatchOutput {
  return {
    customer_id: mismatch.customerId,
    total_balance: mismatch.totalBalance,
    ledger_sum: mismatch.ledgerSum,
    ledger_entries: mismatch.ledgerEntries,
    entry_count: mismatch.entryCount,
    ledger_amount_total: mismatch.ledgerAmountTotal,
    amount_sum: mismatch.amountSum,
  };
}
