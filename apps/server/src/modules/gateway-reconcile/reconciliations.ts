import { and, count, desc, eq, type SQL } from "drizzle-orm";
import {
  RECONCILIATION_DIFFERENCE_KINDS,
  reconciliationDifferenceSchema,
  resolvePaging,
  type JobRun,
  type Page,
  type Reconciliation,
  type ReconciliationDifference,
  type ReconciliationListQuery,
  type ReconciliationSummary,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Database, Executor } from "../../db/database.js";
import { gatewayReconciliations } from "../../db/tables.js";
import { roleOf, type TenantContext } from "../../http/auth-context.js";
import { forbidden, notFound } from "../../http/errors.js";
import { createJobRun } from "../jobs/job-runs.js";
import { gatewayAccess, type PaymentGateway } from "../payments/payment-gateway.js";
import { toCsvLine } from "../reports/report-csv.js";
import { GATEWAY_RECONCILE_JOB, type GatewayReconcilePayload } from "./gateway-reconcile-run.js";

type Row = typeof gatewayReconciliations.$inferSelect;

const storedDifferences = z.array(reconciliationDifferenceSchema).catch([]);

function differencesOf(row: Row): ReconciliationDifference[] {
  return storedDifferences.parse(row.differences);
}

function summaryOf(row: Row): ReconciliationSummary {
  const differences = differencesOf(row);
  const counts: Record<string, number> = {};
  for (const kind of RECONCILIATION_DIFFERENCE_KINDS)
    counts[kind] = differences.filter((difference) => difference.kind === kind).length;
  return {
    id: row.id,
    client_id: row.clientId,
    day: row.day,
    status: row.status,
    job_run_id: row.jobRunId,
    gateway_count: row.gatewayCount,
    gateway_total: row.gatewayTotal,
    ledger_count: row.ledgerCount,
    ledger_total: row.ledgerTotal,
    difference_count: differences.length,
    difference_counts: counts,
    error: row.error,
    checked_at: row.checkedAt?.toISOString() ?? null,
  };
}

/** The client's reconciled days, newest first (date: that day only). */
export async function listReconciliations(
  db: Executor,
  tenant: TenantContext,
  query: ReconciliationListQuery,
): Promise<Page<ReconciliationSummary>> {
  const conditions: SQL[] = [eq(gatewayReconciliations.clientId, tenant.clientId)];
  if (query.date !== undefined) conditions.push(eq(gatewayReconciliations.day, query.date));
  const where = and(...conditions);
  const { limit, offset } = resolvePaging(query);
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(gatewayReconciliations)
      .where(where)
      .orderBy(desc(gatewayReconciliations.day))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(gatewayReconciliations).where(where),
  ]);
  return { count: Number(totals[0]?.total ?? 0), results: rows.map(summaryOf) };
}

/** One day with its differences; another client's day is a 404 like any missing record. */
export async function getReconciliation(
  db: Executor,
  tenant: TenantContext,
  id: number,
): Promise<Reconciliation> {
  const [row] = await db
    .select()
    .from(gatewayReconciliations)
    .where(and(eq(gatewayReconciliations.clientId, tenant.clientId), eq(gatewayReconciliations.id, id)));
  if (!row) throw notFound();
  return { ...summaryOf(row), differences: differencesOf(row) };
}

const CSV_COLUMNS = [
  "day",
  "kind",
  "trans_id",
  "order_id",
  "attempt_id",
  "customer_id",
  "gateway_amount",
  "ledger_amount",
  "detail",
] as const;

/** The day as CSV: a totals line, then one line per difference (formulas neutralised). */
export function reconciliationCsv(reconciliation: Reconciliation): { fileName: string; content: Buffer } {
  const lines = [
    toCsvLine([
      "day",
      "status",
      "gateway_count",
      "gateway_total",
      "ledger_count",
      "ledger_total",
      "differences",
    ]),
    toCsvLine([
      reconciliation.day,
      reconciliation.status,
      reconciliation.gateway_count,
      reconciliation.gateway_total,
      reconciliation.ledger_count,
      reconciliation.ledger_total,
      reconciliation.difference_count,
    ]),
    "\r\n",
    toCsvLine(CSV_COLUMNS),
    ...reconciliation.differences.map((difference) =>
      toCsvLine([
        reconciliation.day,
        difference.kind,
        difference.trans_id,
        difference.order_id,
        difference.attempt_id ?? "",
        difference.customer_id ?? "",
        difference.gateway_amount ?? "",
        difference.ledger_amount ?? "",
        difference.detail,
      ]),
    ),
  ];
  return {
    fileName: `reconciliation-${reconciliation.day}.csv`,
    content: Buffer.from(lines.join(""), "utf8"),
  };
}

export type EnqueueReconcile = (tx: Executor, payload: GatewayReconcilePayload) => Promise<void>;

/**
 * An admin's run of one client's day: 400 when the client has no gateway key (or none is
 * configured); the run and its job commit together; 202 with the run.
 */
export async function startReconcile(
  db: Database,
  gateway: PaymentGateway,
  tenant: TenantContext,
  day: string,
  enqueue: EnqueueReconcile,
): Promise<JobRun> {
  if (roleOf(tenant.user) !== "admin") throw forbidden();
  await gatewayAccess(db, gateway, tenant.clientId);
  return db.transaction(async (tx) => {
    const run = await createJobRun(tx, tenant, GATEWAY_RECONCILE_JOB);
    await enqueue(tx, { clientId: tenant.clientId, runId: run.id, day });
    return run;
  });
}
