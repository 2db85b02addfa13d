import { sql } from "drizzle-orm";
import {
  ADMIN_CYCLES,
  adminCycleOf,
  billingPeriod,
  CLIENT_SKIP_LABELS,
  clientSkipReason,
  NO_STATEMENT_LABELS,
  cannotDeliverDetail,
  type NoStatementReason,
  resolvePaging,
  type ProductionClient,
  type ProductionClientPreview,
  type ProductionCustomer,
  type ProductionCustomerPreview,
  type ProductionCycleSummary,
  type ProductionCyclePreview,
  LATE_FEE_CODE,
} from "@cyclebill/domain";
import { z } from "zod";
import { businessToday } from "../../clock.js";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import { notFound } from "../../http/errors.js";
import { addFigures, emptyFigures, figuresOf, planCustomers, type CustomerPlan } from "./plan-production.js";
import {
  clientById,
  clientsAlreadyRun,
  clientsOfCycle,
  type ProductionClientRow,
  cycleRunDateRefusal,
} from "./production-inputs.js";
import { latestRunsByCycle } from "./production-runs.js";

// The preview: the same plan the run writes, computed and shown, nothing posted and nothing locked.

type ClientPlan = { summary: ProductionClient; plans: CustomerPlan[] };
/** What the run's confirmation may add: a first run's catch-up from the client's start date. */
export type PreviewOptions = { catchUp?: boolean };

async function planClient(
  db: Executor,
  client: ProductionClientRow,
  runDate: string,
  alreadyRun: boolean,
  options: PreviewOptions,
  customerIds?: number[],
): Promise<ClientPlan> {
  // The run's own period rule (start-production.ts), catch-up included: the preview is the run.
  const period = billingPeriod(client.dateLastBilling, client.clientStartDate, runDate, {
    catchUp: options.catchUp,
  });
  const reason =
    clientSkipReason({
      statusCode: client.statusCode,
      inactiveFlag: client.inactiveFlag,
      alreadyRun: alreadyRun || period === null,
    }) ?? (period ? null : "already_run");
  const plans =
    reason || !period ? [] : await planCustomers(db, client, { period, productionRunId: null, customerIds });
  return {
    summary: {
      client_id: client.id,
      client_no: client.clientNo,
      client_name: client.clientName,
      normal_cycle: client.normalCycle,
      skip_reason: reason,
      skip_label: reason ? CLIENT_SKIP_LABELS[reason] : null,
      period_start: period?.start ?? null,
      period_end: period?.end ?? null,
      figures: reason ? emptyFigures() : figuresOf(plans),
    },
    plans,
  };
}

/** GET dailyproduction/cycle/{n}: the cycle's clients with what a run on runDate would do. */
export async function previewCycle(
  db: Executor,
  cycle: number,
  runDate: string,
  options: PreviewOptions = {},
): Promise<ProductionCyclePreview> {
  const clients = await clientsOfCycle(db, cycle);
  const alreadyRun = await clientsAlreadyRun(db, cycle, runDate);
  const previews: ProductionClient[] = [];
  for (const client of clients) {
    previews.push((await planClient(db, client, runDate, alreadyRun.has(client.id), options)).summary);
  }
  return {
    cycle,
    run_date: runDate,
    // The start's own refusal of this date: the screen shows it instead of a run it would refuse.
    run_refusal: cycleRunDateRefusal(clients, runDate, businessToday()),
    clients: previews,
    totals: addFigures(previews.filter((client) => !client.skip_reason).map((client) => client.figures)),
  };
}

/** The reason in words; for a statement that cannot be delivered, what the customer's record lacks. */
function noStatementLabel(plan: CustomerPlan, reason: NoStatementReason): string {
  const detail = cannotDeliverDetail(plan.customer, reason);
  return detail ? `${NO_STATEMENT_LABELS[reason]} (${detail})` : NO_STATEMENT_LABELS[reason];
}

function customerRow(plan: CustomerPlan): ProductionCustomer {
  const decision = plan.decision;
  return {
    customer_id: plan.customer.id,
    customer_no: plan.customer.customerNo,
    customer_name: plan.customer.customerName,
    pull_flag: plan.customer.pullFlag,
    finance_flag: plan.customer.financeFlag,
    delete_flag: plan.customer.deleteFlag,
    balance: plan.customer.totalBalance,
    new_balance: plan.newBalance,
    statement: decision.produce,
    delivery: decision.produce ? decision.delivery : null,
    no_statement_reason: decision.produce ? null : decision.reason,
    no_statement_label: decision.produce ? null : noStatementLabel(plan, decision.reason),
    recurring: {
      count: plan.recurring.length,
      total: figuresOf([plan]).recurring.total,
    },
    late_fee: plan.lateFee.total,
    late_fee_description: plan.lateFee.description,
  };
}

async function loadClient(db: Executor, clientId: number, runDate: string) {
  const client = await clientById(db, clientId);
  if (!client) throw notFound();
  const alreadyRun = await clientsAlreadyRun(db, adminCycleOf(client.normalCycle), runDate);
  return { client, alreadyRun: alreadyRun.has(client.id) };
}

/** GET dailyproduction/client/{id}: one client's customers as a run would leave them (paged, by id). */
export async function previewClient(
  db: Executor,
  clientId: number,
  runDate: string,
  paging: { limit?: number; offset?: number; page?: number },
  options: PreviewOptions = {},
): Promise<ProductionClientPreview> {
  const { client, alreadyRun } = await loadClient(db, clientId, runDate);
  const { summary, plans } = await planClient(db, client, runDate, alreadyRun, options);
  const { limit, offset } = resolvePaging(paging);
  return {
    ...summary,
    run_date: runDate,
    count: plans.length,
    results: plans.slice(offset, offset + limit).map(customerRow),
  };
}

/** One customer's plan for a run on runDate and its client's summary; 404 when it is not billed. */
export async function planOneCustomer(
  db: Executor,
  clientId: number,
  customerId: number,
  runDate: string,
  options: PreviewOptions = {},
): Promise<{ summary: ProductionClient; plan: CustomerPlan }> {
  const { client, alreadyRun } = await loadClient(db, clientId, runDate);
  const { summary, plans } = await planClient(db, client, runDate, alreadyRun, options, [customerId]);
  const [plan] = plans;
  if (!plan) throw notFound();
  return { summary, plan };
}

/** GET dailyproduction/client/{id}/customers/{id}: one customer's figures and the lines a run posts. */
export async function previewCustomer(
  db: Executor,
  clientId: number,
  customerId: number,
  runDate: string,
  options: PreviewOptions = {},
): Promise<ProductionCustomerPreview> {
  const { summary, plan } = await planOneCustomer(db, clientId, customerId, runDate, options);
  return {
    ...customerRow(plan),
    client_id: clientId,
    run_date: runDate,
    period_start: summary.period_start,
    period_end: summary.period_end,
    ageing: plan.ageing,
    lines: [
      ...plan.recurring.map((posting) => ({
        kind: "recurring" as const,
        code: posting.charge.code,
        description: posting.description,
        service_date: posting.serviceDate,
        rate: posting.charge.rate,
        quantity: posting.quantity,
        amount: posting.amount,
      })),
      ...(plan.lateFee.lines.length === 0
        ? []
        : [
            {
              kind: "late_fee" as const,
              code: LATE_FEE_CODE,
              description: plan.lateFee.description,
              service_date: runDate,
              rate: plan.lateFee.total,
              quantity: "1",
              amount: plan.lateFee.total,
            },
          ]),
    ],
  };
}

const cycleCountRowSchema = z.object({ normal_cycle: dbInt, clients: dbInt });

/** GET dailyproduction: every admin cycle with its number of clients and its last run. */
export async function listCycles(
  db: Executor,
): Promise<{ count: number; results: ProductionCycleSummary[] }> {
  const counts = await queryRows(
    db,
    sql`select normal_cycle, count(*) as clients from clients group by normal_cycle`,
    cycleCountRowSchema,
  );
  const perCycle = new Map<number, number>();
  for (const row of counts) {
    const cycle = adminCycleOf(row.normal_cycle);
    perCycle.set(cycle, (perCycle.get(cycle) ?? 0) + row.clients);
  }
  const lastRuns = await latestRunsByCycle(db);
  const results = ADMIN_CYCLES.map((cycle) => ({
    cycle,
    clients: perCycle.get(cycle) ?? 0,
    last_run: lastRuns.get(cycle) ?? null,
  }));
  return { count: results.length, results };
}
