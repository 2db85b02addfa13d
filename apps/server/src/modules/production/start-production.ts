import { auditProductionRun } from "./production-audit.js";
import { and, desc, eq, sql } from "drizzle-orm";
import {
  billingPeriod,
  clientSkipReason,
  type ClientSkipReason,
  type ProductionRun,
} from "@cyclebill/domain";
import { businessToday } from "../../clock.js";
import type { Database } from "../../db/database.js";
import { cycleRuns, productionRuns } from "../../db/tables.js";
import type { AuthUser } from "../../http/auth-context.js";
import { fieldError } from "../../http/errors.js";
import { createJobRunFor } from "../jobs/job-runs.js";
import {
  clientsAlreadyRun,
  clientsOfCycle,
  cycleRunDateRefusal,
  failedParts,
  type FailedPart,
} from "./production-inputs.js";
import { getProductionRun } from "./production-runs.js";
import { PRODUCTION_RUN_JOB, type EnqueueProductionSteps } from "./run-production.js";

export type StartProductionInput = {
  cycle: number;
  runDate: string;
  clientIds?: number[];
  idempotencyKey?: string;
  chunkSize: number;
  /** Bill a first run from the client's start date instead of one cycle. */
  catchUp?: boolean;
};

/**
 * Starts the production run of a cycle and date: one part per client that bills (its production_runs
 * row, unique per client, cycle and month, and its job run), and each part's plan step, all in one
 * transaction. Answers the existing run instead when the Idempotency-Key was seen, when a run of this
 * cycle and date is still going, or when no client is left to bill; so a second POST posts nothing.
 * A client whose part of this cycle and date failed is resumed instead (in the run it belongs to).
 */
export async function startProductionRun(
  db: Database,
  /** Who started it: the admin, or (a scheduled run) the admin who set the schedule, if still there. */
  user: AuthUser | Pick<AuthUser, "id"> | null,
  input: StartProductionInput,
  enqueue: EnqueueProductionSteps,
): Promise<ProductionRun> {
  const id = await db.transaction(async (tx) => {
    // One start at a time per cycle: two racing POSTs see each other's run.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('production-cycle'), ${input.cycle}::int)`);
    if (input.idempotencyKey) {
      const [seen] = await tx
        .select({ id: cycleRuns.id })
        .from(cycleRuns)
        .where(eq(cycleRuns.idempotencyKey, input.idempotencyKey));
      if (seen) return seen.id;
    }
    const [latest] = await tx
      .select({ id: cycleRuns.id })
      .from(cycleRuns)
      .where(and(eq(cycleRuns.cycle, input.cycle), eq(cycleRuns.runDate, input.runDate)))
      .orderBy(desc(cycleRuns.createdAt), desc(cycleRuns.id))
      .limit(1);
    const cycleClients = await clientsOfCycle(tx, input.cycle);
    if (input.clientIds) {
      const inCycle = new Set(cycleClients.map((client) => client.id));
      const stray = input.clientIds.filter((clientId) => !inCycle.has(clientId));
      if (stray.length > 0)
        throw fieldError("client_ids", `Not clients of cycle ${input.cycle}: ${stray.join(", ")}.`);
    }
    const asked = input.clientIds ? new Set(input.clientIds) : null;
    // A real date, at most the look-ahead past today, not before a billed client's last billing.
    const refusal = cycleRunDateRefusal(cycleClients, input.runDate, businessToday(), asked);
    if (refusal) throw fieldError("run_date", refusal);
    const alreadyRun = await clientsAlreadyRun(tx, input.cycle, input.runDate);
    const failed = await failedParts(tx, input.cycle, input.runDate);
    const retried: { clientId: number; part: FailedPart }[] = [];
    const skipped: { clientId: number; reason: ClientSkipReason }[] = [];
    const billing: { clientId: number; start: string; end: string }[] = [];
    for (const client of cycleClients) {
      if (asked && !asked.has(client.id)) continue;
      const failedPart = failed.get(client.id);
      if (failedPart) {
        retried.push({ clientId: client.id, part: failedPart });
        continue;
      }
      const period = billingPeriod(client.dateLastBilling, client.clientStartDate, input.runDate, {
        catchUp: input.catchUp,
      });
      const reason = clientSkipReason({
        statusCode: client.statusCode,
        inactiveFlag: client.inactiveFlag,
        alreadyRun: alreadyRun.has(client.id) || period === null,
      });
      if (reason || !period) skipped.push({ clientId: client.id, reason: reason ?? "already_run" });
      else billing.push({ clientId: client.id, start: period.start, end: period.end });
    }
    if (billing.length === 0 && retried.length === 0 && latest) return latest.id;

    // A failed part resumes in its own run: a new job run plans only the customers its recorded
    // chunks did not cover; the unique keys keep anything from being posted or stated twice.
    for (const { clientId, part } of retried) {
      const job = await createJobRunFor(tx, clientId, PRODUCTION_RUN_JOB, user?.id ?? null);
      await tx
        .update(productionRuns)
        .set({ jobRunId: job.id, status: "queued", error: null, finishedAt: null })
        .where(and(eq(productionRuns.clientId, clientId), eq(productionRuns.id, part.productionRunId)));
      await auditProductionRun(tx, "retry", { clientId, id: part.productionRunId }, { job_run_id: job.id });
      await enqueue(tx, [
        {
          payload: {
            step: "plan",
            clientId,
            runId: job.id,
            productionRunId: part.productionRunId,
            chunkSize: input.chunkSize,
            resumeFrom: part.jobRunId,
          },
        },
      ]);
    }
    const resumedRun = retried.find((item) => item.part.cycleRunId !== null)?.part.cycleRunId ?? null;
    if (billing.length === 0 && resumedRun !== null) return resumedRun;

    const [run] = await tx
      .insert(cycleRuns)
      .values({
        cycle: input.cycle,
        runDate: input.runDate,
        clientIds: input.clientIds ?? null,
        skipped,
        idempotencyKey: input.idempotencyKey ?? null,
        startedByUserId: user?.id ?? null,
      })
      .returning({ id: cycleRuns.id });
    if (!run) throw new Error("production run not created");
    const orphans = retried.filter((item) => item.part.cycleRunId === null);
    for (const { clientId, part } of orphans)
      await tx
        .update(productionRuns)
        .set({ cycleRunId: run.id })
        .where(and(eq(productionRuns.clientId, clientId), eq(productionRuns.id, part.productionRunId)));
    for (const part of billing) {
      const job = await createJobRunFor(tx, part.clientId, PRODUCTION_RUN_JOB, user?.id ?? null);
      const [row] = await tx
        .insert(productionRuns)
        .values({
          clientId: part.clientId,
          cycleRunId: run.id,
          jobRunId: job.id,
          cycle: input.cycle,
          runDate: input.runDate,
          runMonth: input.runDate.slice(0, 7),
          periodStart: part.start,
          periodEnd: part.end,
          startedByUserId: user?.id ?? null,
        })
        .returning({ id: productionRuns.id });
      if (!row) throw new Error("production run part not created");
      await auditProductionRun(
        tx,
        "start",
        { clientId: part.clientId, id: row.id },
        {
          cycle: input.cycle,
          run_date: input.runDate,
          period_start: part.start,
          period_end: part.end,
          cycle_run_id: run.id,
          job_run_id: job.id,
        },
      );
      // The client as it is before this part (nothing of the run has touched it yet): what undo restores.
      await tx.execute(sql`update production_runs p set client_before = (select jsonb_build_object(
          'cycle_ran', c.cycle_ran, 'days_in_last_cycle', c.days_in_last_cycle,
          'date_first_billing', c.date_first_billing::text, 'date_last_billing', c.date_last_billing::text,
          'date_this_billing', c.date_this_billing::text, 'number_bills_sent_ytd', c.number_bills_sent_ytd,
          'number_bi_sent_ytd', c.number_bi_sent_ytd, 'number_mailed_bills', c.number_mailed_bills,
          'number_emailed_bills', c.number_emailed_bills, 'number_pulled_bills', c.number_pulled_bills,
          'number_bill_overflows', c.number_bill_overflows, 'books_closed_through', c.books_closed_through::text)
        from clients c where c.id = p.client_id)
        where p.client_id = ${part.clientId} and p.id = ${row.id}`);
      await enqueue(tx, [
        {
          payload: {
            step: "plan",
            clientId: part.clientId,
            runId: job.id,
            productionRunId: row.id,
            chunkSize: input.chunkSize,
          },
        },
      ]);
    }
    return run.id;
  });
  return getProductionRun(db, id);
}
