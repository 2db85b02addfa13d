import { lockStatementNumbers } from "../statements/statement-numbers.js";
import { and, eq, sql } from "drizzle-orm";
import { toQuantity, toRate, type AgeingBuckets } from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { codes } from "../../db/tables.js";
import { postEntries, type NewLedgerEntry } from "../ledger/post-entries.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import { billEntriesOnStatements, startNextPeriods } from "../ledger/statement-runs.js";
import { billedFigures, type AgeingSnapshot } from "../ledger/statement-period.js";
import { boxesOfStatementsToMake } from "../statements/statement-boxes.js";
import { ageCustomerBalances } from "../summary/customer-ageing.queries.js";
import { LATE_FEE_CODE, type CustomerPlan } from "./plan-production.js";

/** The client's system late-fee code, created when missing (a concurrent creator wins the key). */
export async function ensureLateFeeCode(tx: Executor, clientId: number): Promise<number> {
  await tx
    .insert(codes)
    .values({
      clientId,
      code: LATE_FEE_CODE,
      codeName: "Late fee",
      description: "Late fee",
      codeType: "charge",
    })
    .onConflictDoNothing();
  const [row] = await tx
    .select({ id: codes.id })
    .from(codes)
    .where(and(eq(codes.clientId, clientId), eq(codes.code, LATE_FEE_CODE)));
  if (!row) throw new Error("late-fee code missing");
  return row.id;
}

/** What a chunk changed besides its postings and statements, as it was before: what undo restores. */
export type ChunkRestore = {
  /** Customers whose one-month pull flag (T or N) the run set back to A. */
  pull: [number, string][];
  /** Customers whose route plan skipped this one bill. */
  routeSkip: number[];
  /** Recurring charges billed, with their last billed date before. */
  recurring: [number, string | null][];
};

export type WrittenChunk = { statements: number; invoicesProcessed: number; restore: ChunkRestore };

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
    const written = await makeStatements(
      tx,
      input,
      plans.filter((plan) => plan.decision.produce),
    );
    const ids = sqlArray([...input.customerIds], "bigint");
    const pulled = await queryRows<{ id: string | number; pull_flag: string }>(
      tx,
      sql`select id, pull_flag from customers
          where client_id = ${input.clientId} and id = any(${ids}) and pull_flag in ('T', 'N') order by id`,
    );
    const skipped = await queryRows<{ customer_id: string | number }>(
      tx,
      sql`select customer_id from route_plans
          where client_id = ${input.clientId} and customer_id = any(${ids}) and bill_indicator_flag = 'skip'
          order by customer_id`,
    );
    await tx.execute(sql`update customers set pull_flag = 'A', updated_at = now()
      where client_id = ${input.clientId} and id = any(${ids}) and pull_flag in ('T', 'N')`);
    await tx.execute(sql`update route_plans set bill_indicator_flag = 'standard'
      where client_id = ${input.clientId} and customer_id = any(${ids}) and bill_indicator_flag = 'skip'`);
    return {
      ...written,
      restore: {
        pull: pulled.map((row) => [Number(row.id), row.pull_flag]),
        routeSkip: skipped.map((row) => Number(row.customer_id)),
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
  if (billedCharges.length === 0) return [];
  const before = await queryRows<{ id: string | number; last_billed_on: string | null }>(
    tx,
    sql`select id, last_billed_on::text as last_billed_on from recurring_charges
        where client_id = ${clientId} and id = any(${sqlArray(billedCharges, "bigint")}) order by id`,
  );
  await tx.execute(sql`update recurring_charges set last_billed_on = ${runDate}::date
    where client_id = ${clientId} and id = any(${sqlArray(billedCharges, "bigint")})`);
  return before.map((row) => [Number(row.id), row.last_billed_on]);
}

function snapshotOf(ageing: AgeingBuckets | undefined): AgeingSnapshot {
  return {
    currentBalance: ageing?.current ?? "0",
    overdue30Days: ageing?.days30 ?? "0",
    overdue60Days: ageing?.days60 ?? "0",
    overdue90Days: ageing?.days90 ?? "0",
    overdueOver90Days: ageing?.over90 ?? "0",
  };
}

async function makeStatements(
  tx: Executor,
  input: { clientId: number; productionRunId: number; runDate: string },
  plans: readonly CustomerPlan[],
): Promise<Omit<WrittenChunk, "restore">> {
  if (plans.length === 0) return { statements: 0, invoicesProcessed: 0 };
  const { clientId, productionRunId, runDate } = input;
  const ids = plans.map((plan) => plan.customer.id);
  const figures = await queryRows<{ id: string | number; previous_balance: string }>(
    tx,
    sql`select id, previous_balance::text
        from customers where client_id = ${clientId} and id = any(${sqlArray(ids, "bigint")}) order by id`,
  );
  const byId = new Map(figures.map((row) => [Number(row.id), row]));
  const ageing = new Map(
    (await ageCustomerBalances(tx, clientId, runDate, ids)).map((row) => [row.customerId, snapshotOf(row)]),
  );
  // Each statement's boxes from the entries it is about to bill: written once, with the statement.
  const boxes = await boxesOfStatementsToMake(
    tx,
    clientId,
    runDate,
    ids.map((id) => ({ customerId: id, previousBalance: byId.get(id)?.previous_balance ?? "0" })),
  );
  // Taken last, after every row lock of the chunk, and held to its commit: chunks running at once
  // draw their statement numbers one after another.
  await lockStatementNumbers(tx, clientId);
  const [last] = await queryRows<{ max: string | number | null }>(
    tx,
    sql`select max(statement_num) as max from statements where client_id = ${clientId}`,
  );
  const firstNum = Number(last?.max ?? 0) + 1;
  const rows = plans.map((plan, index) => {
    const customer = byId.get(plan.customer.id);
    if (!customer) throw new Error(`customer ${plan.customer.id} not found`);
    const own = boxes.get(plan.customer.id);
    if (!own) throw new Error(`statement boxes of customer ${plan.customer.id} missing`);
    return {
      plan,
      customer,
      boxes: own,
      num: firstNum + index,
      ageing: ageing.get(plan.customer.id) ?? snapshotOf(undefined),
      delivery: plan.decision.produce ? plan.decision.delivery : "mail",
    };
  });
  const column = <T extends string | number>(pick: (row: (typeof rows)[number]) => T) => rows.map(pick);
  const inserted = await queryRows<{ id: string | number; customer_id: string | number }>(
    tx,
    sql`insert into statements (client_id, statement_num, customer_id, statement_date, invoice_status,
          production_run_id, delivery, previous_balance, charges, payments, credit_adjustments, debit_adjustments,
          late_fees, new_balance, current_balance, overdue_30_days, overdue_60_days, overdue_90_days,
          overdue_over_90_days)
        select ${clientId}::bigint, s.num, s.customer_id, ${runDate}::date, 'processed', ${productionRunId}::bigint,
               s.delivery, s.previous_balance, s.charges, s.payments, s.credit, s.debit, s.late_fees, s.new_balance,
               s.current_balance, s.overdue_30, s.overdue_60, s.overdue_90, s.overdue_over_90
        from unnest(
          ${sqlArray(
            column((row) => row.num),
            "int",
          )},
          ${sqlArray(ids, "bigint")},
          ${sqlArray(
            column((row) => row.delivery),
            "text",
          )},
          ${sqlArray(
            column((row) => row.boxes.previousBalance),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.boxes.charges),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.boxes.payments),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.boxes.creditAdjustments),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.boxes.debitAdjustments),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.boxes.lateFees),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.boxes.newBalance),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.ageing.currentBalance),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.ageing.overdue30Days),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.ageing.overdue60Days),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.ageing.overdue90Days),
            "numeric",
          )},
          ${sqlArray(
            column((row) => row.ageing.overdueOver90Days),
            "numeric",
          )}
        ) as s(num, customer_id, delivery, previous_balance, charges, payments, credit, debit, late_fees, new_balance,
               current_balance, overdue_30, overdue_60, overdue_90, overdue_over_90)
        returning id, customer_id`,
  );
  const statementOf = new Map(inserted.map((row) => [Number(row.customer_id), Number(row.id)]));
  const pairs = ids.map((id) => ({ customerId: id, statementId: statementOf.get(id) as number }));
  // Billed before the invoices are carried: billedByStatement takes the customer's closed invoices.
  await billEntriesOnStatements(
    tx,
    clientId,
    pairs.map((pair) => ({ ...pair, statementDate: runDate })),
  );
  const carried = await queryRows<{ id: string | number }>(
    tx,
    sql`update invoices i set invoice_status = 'processed', statement_id = s.statement_id, processed_at = now()
        from unnest(
          ${sqlArray(
            pairs.map((pair) => pair.customerId),
            "bigint",
          )},
          ${sqlArray(
            pairs.map((pair) => pair.statementId),
            "bigint",
          )}
        ) as s(customer_id, statement_id)
        where i.client_id = ${clientId} and i.customer_id = any(${sqlArray(ids, "bigint")})
          and i.customer_id = s.customer_id and i.invoice_status = 'closed'
        returning i.id`,
  );
  await startNextPeriods(
    tx,
    clientId,
    rows.map((row) => ({
      customerId: row.plan.customer.id,
      previousBalance: row.boxes.newBalance,
      ageing: row.ageing,
      billed: billedFigures(row.boxes),
    })),
  );
  return { statements: inserted.length, invoicesProcessed: carried.length };
}
