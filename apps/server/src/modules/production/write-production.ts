import { writeStatements } from "../statements/write-statements.js";
import { sql } from "drizzle-orm";
import { LATE_FEE_CODE, ONE_RUN_GROUP_FLAG, ONE_RUN_PULL_FLAGS, toQuantity, toRate } from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt, dbText } from "../../db/row-schemas.js";
import { postEntries, type NewLedgerEntry } from "../ledger/post-entries.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import { resetPullFlagsAfterRun } from "../customers/pull-flags-after-run.js";
import { markRecurringBilled } from "../customers/recurring-billed.js";
import { ensureSystemCode } from "../codes/ensure-system-code.js";
import { resetGroupFlagsAfterRun } from "../groups/route-plan-flags-after-run.js";
import type { CustomerPlan } from "./plan-production.js";

/** The client's system late-fee code, created when missing. */
export function ensureLateFeeCode(tx: Executor, clientId: number): Promise<number> {
  return ensureSystemCode(
    tx,
    clientId,
    {
      code: LATE_FEE_CODE,
      codeName: "Late fee",
      description: "Late fee",
      codeType: "charge",
    },
    true,
  );
}

/** What a chunk changed besides its postings and statements, as it was before: what undo restores. */
export const chunkRestoreSchema = z.object({
  /** Customers whose one-month pull flag (T or N) the run set back to A. */
  pull: z.array(z.tuple([z.number().int(), z.string()])),
  /** Customers whose route plan skipped this one bill. */
  routeSkip: z.array(z.number().int()),
  /** Recurring charges billed, with their last billed date before. */
  recurring: z.array(z.tuple([z.number().int(), z.string().nullable()])),
});
export type ChunkRestore = z.output<typeof chunkRestoreSchema>;

export type WrittenChunk = { statements: number; invoicesProcessed: number; restore: ChunkRestore };

const pulledRowSchema = z.object({ id: dbInt, pull_flag: dbText });
const skippedRowSchema = z.object({ customer_id: dbInt });

/** The phases a run's time is reported in (the production benchmark sums them). */
export type ProductionPhase = "plan" | "postings" | "statements" | "bookkeeping";

/** Runs one phase's work; the default just runs it, the benchmark also times it. */
export type PhaseTimer = <T>(phase: ProductionPhase, work: () => Promise<T>) => Promise<T>;

export const untimed: PhaseTimer = (_phase, work) => work();

/**
 * Writes a chunk's plans (the caller holds the client row shared, then the customers, locked): posts
 * the recurring charges and late fees through the ledger writer, then makes the statements set-based —
 * numbers drawn under the client's statement-number lock, closed invoices carried and marked processed (open
 * ones stay open; their entries are billed as ledger lines), entries billed, next
 * period started — and resets the one-month flags (pull T/N to A, group skip to standard).
 */
export async function writeChunk(
  tx: Executor,
  input: { clientId: number; productionRunId: number; runDate: string; customerIds: readonly number[] },
  plans: readonly CustomerPlan[],
  time: PhaseTimer = untimed,
): Promise<WrittenChunk> {
  const recurring = await time("postings", () => postChunk(tx, input, plans));
  return time("statements", async () => {
    const written = await writeStatements(
      tx,
      { clientId: input.clientId, productionRunId: input.productionRunId, statementDate: input.runDate },
      plans.flatMap((plan) =>
        plan.decision.produce ? [{ customerId: plan.customer.id, delivery: plan.decision.delivery }] : [],
      ),
    );
    const ids = sqlArray([...input.customerIds], "bigint");
    const oneRunPull = sqlArray([...ONE_RUN_PULL_FLAGS], "text");
    // The one-run flags go back as the domain's pullFlagAfterRun and groupFlagAfterRun say.
    const pulled = await queryRows(
      tx,
      sql`select id, pull_flag from customers
          where client_id = ${input.clientId} and id = any(${ids}) and pull_flag = any(${oneRunPull}) order by id`,
      pulledRowSchema,
    );
    const skipped = await queryRows(
      tx,
      sql`select customer_id from route_plans
          where client_id = ${input.clientId} and customer_id = any(${ids})
            and bill_indicator_flag = ${ONE_RUN_GROUP_FLAG}
          order by customer_id`,
      skippedRowSchema,
    );
    await resetPullFlagsAfterRun(tx, input.clientId, input.customerIds);
    await resetGroupFlagsAfterRun(tx, input.clientId, input.customerIds);
    return {
      statements: written.statements,
      invoicesProcessed: written.invoicesProcessed,
      restore: {
        pull: pulled.map((row) => [row.id, row.pull_flag]),
        routeSkip: skipped.map((row) => row.customer_id),
        recurring,
      },
    };
  });
}

/** The chunk's recurring charges and late fees, through the ledger writer; the charges' last billed dates before. */
async function postChunk(
  tx: Executor,
  input: { clientId: number; productionRunId: number; runDate: string },
  plans: readonly CustomerPlan[],
): Promise<[number, string | null][]> {
  const { clientId, productionRunId, runDate } = input;
  const entries: NewLedgerEntry[] = [];
  for (const plan of plans) {
    for (const posting of plan.recurring) {
      entries.push({
        customerId: plan.customer.id,
        codeId: posting.charge.codeId,
        codeType: posting.charge.codeType as NewLedgerEntry["codeType"],
        description: posting.description,
        rate: toRate(posting.charge.rate),
        quantity: toQuantity(posting.quantity),
        serviceDate: posting.serviceDate,
        unitOfMeasureId: posting.charge.unitOfMeasureId,
        transactionType: "recurring",
        recurringChargeId: posting.charge.id,
        productionRunId,
        sourceKey: posting.sourceKey,
      });
    }
  }
  const withFees = plans.filter((plan) => plan.lateFee.lines.length > 0);
  if (withFees.length > 0) {
    const codeId = await ensureLateFeeCode(tx, clientId);
    for (const plan of withFees) {
      entries.push({
        customerId: plan.customer.id,
        codeId,
        codeType: "charge",
        description: plan.lateFee.description,
        rate: toRate(plan.lateFee.total),
        quantity: "1",
        serviceDate: runDate,
        transactionType: "late_fee",
        productionRunId,
        sourceKey: plan.lateFeeKey,
      });
    }
  }
  // The plan left out whatever the ledger refuses, so a refusal here is a bug: fail loudly.
  await postEntries(tx, { clientId }, entries, "refuse");
  const billedCharges = [
    ...new Set(plans.flatMap((plan) => plan.recurring.map((posting) => posting.charge.id))),
  ];
  return markRecurringBilled(tx, clientId, billedCharges, runDate);
}
