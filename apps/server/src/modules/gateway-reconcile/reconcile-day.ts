import { and, eq, isNotNull, ne, sql } from "drizzle-orm";
import {
  addDays,
  isApprovedSale,
  reportDay,
  reportEventOf,
  type DailyReportRecord,
  type ReconciliationDifference,
} from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { clients, gatewayReconciliations } from "../../db/tables.js";
import { applyGatewayEvent, type GatewayEventInput } from "../gateway-events/apply-gateway-event.js";
import { loadBluepayCredentials } from "../payments/bluepay-credentials.js";
import type { PaymentGateway } from "../payments/payment-gateway.js";
import { compareDay, type DayComparison } from "./compare-day.js";
import { fetchDailyReport, type DailyReportResult } from "./daily-report-client.js";

// Reconciles one client's day: reads BluePay's settlement report of the day and the report of what
// was issued on it, applies what they say happened (settlements, returns, chargebacks, their
// reversals, notifications of change) through applyGatewayEvent, then compares the day and keeps
// the result, one row per client and day (a re-run replaces it).

export type ReconcileProgress = (progress: { done: number; total: number; step: string }) => Promise<void>;

export type ReconcileDayInput = {
  clientId: number;
  day: string;
  jobRunId?: number | null;
  createdByUserId?: number | null;
  onProgress?: ReconcileProgress;
};

export type ReconcileDayOutcome =
  | ({ kind: "done"; reconciliationId: number; eventsApplied: number } & DayComparison)
  /** retry: the gateway gave no answer (ask again); false when it refused or there is no key. */
  | { kind: "failed"; reconciliationId: number; error: string; retry: boolean };

const PROGRESS_EVERY = 25;

/** Clients with a gateway key: an account id and a sealed secret key. */
export async function clientsWithGatewayKey(db: Database): Promise<{ id: number; clientNo: number }[]> {
  return db
    .select({ id: clients.id, clientNo: clients.clientNo })
    .from(clients)
    .where(and(ne(clients.bluepayAccountId, ""), isNotNull(clients.bluepaySecretKeyEncrypted)))
    .orderBy(clients.id);
}

async function saveDay(
  db: Database,
  input: ReconcileDayInput,
  changes: Partial<typeof gatewayReconciliations.$inferInsert>,
): Promise<number> {
  const values = {
    status: "running" as const,
    jobRunId: input.jobRunId ?? null,
    gatewayCount: 0,
    gatewayTotal: "0",
    ledgerCount: 0,
    ledgerTotal: "0",
    differences: [],
    error: null,
    checkedAt: null,
    createdByUserId: input.createdByUserId ?? null,
    ...changes,
  };
  const [row] = await db
    .insert(gatewayReconciliations)
    .values({ clientId: input.clientId, day: input.day, ...values })
    .onConflictDoUpdate({
      target: [gatewayReconciliations.clientId, gatewayReconciliations.day],
      set: { ...values, updatedAt: sql`now()` },
    })
    .returning({ id: gatewayReconciliations.id });
  if (!row) throw new Error("reconciliation row not saved");
  return row.id;
}

function eventsOf(
  clientId: number,
  day: string,
  settled: DailyReportRecord[],
  issued: DailyReportRecord[],
): GatewayEventInput[] {
  const events = new Map<string, GatewayEventInput>();
  const base = { clientId, source: "report" as const };
  for (const record of settled)
    if (isApprovedSale(record) && record.transId !== "")
      events.set(`settled:${record.transId}`, {
        ...base,
        kind: "settled",
        gatewayTransId: record.transId,
        originalTransId: record.transId,
        code: "",
        reason: "",
        amount: record.amount.replace(/^-/, "") || "0",
        date: reportDay(record.settleDate) || day,
      });
  for (const record of [...settled, ...issued]) {
    const event = reportEventOf(record);
    if (!event || record.transId === "") continue;
    events.set(`${event.kind}:${record.transId}`, {
      ...base,
      kind: event.kind,
      gatewayTransId: record.transId,
      originalTransId: event.originalTransId,
      code: event.code,
      reason: event.reason,
      amount: record.amount.replace(/^-/, "") || "0",
      date: reportDay(record.issueDate) || day,
      ...(event.kind === "noc" ? { correctedData: record.memo || record.account } : {}),
    });
  }
  return [...events.values()];
}

function failure(result: Exclude<DailyReportResult, { kind: "report" }>): { error: string; retry: boolean } {
  if (result.kind === "refused")
    return { error: `BluePay refused the report: ${result.message}`, retry: false };
  if (result.kind === "unclear")
    return { error: `BluePay's report was unreadable: ${result.detail}`, retry: true };
  return { error: `No answer from BluePay's report: ${result.detail}`, retry: true };
}

export async function reconcileDay(
  db: Database,
  gateway: PaymentGateway,
  input: ReconcileDayInput,
): Promise<ReconcileDayOutcome> {
  const progress = input.onProgress ?? (async () => {});
  const reconciliationId = await saveDay(db, input, {});
  const fail = async (error: string, retry: boolean): Promise<ReconcileDayOutcome> => {
    await saveDay(db, input, { status: "failed", error, checkedAt: new Date() });
    return { kind: "failed", reconciliationId, error, retry };
  };
  const credentials = await loadBluepayCredentials(db, gateway.secretsKey, input.clientId);
  if (!gateway.url) return fail("No payment gateway is configured.", false);
  if (!credentials) return fail("This client has no payment gateway key.", false);

  await progress({ done: 0, total: 1, step: "reading BluePay's reports" });
  const range = { mode: gateway.mode, from: input.day, to: addDays(input.day, 1) };
  const options = { timeoutMs: Math.max(gateway.timeoutMs, 30_000) };
  const url = gateway.url;
  // A report only reads: a lost or unreadable one is asked for again at once (twice) before the
  // job gives up and pg-boss retries it a minute later.
  const report = async (bySettlement: boolean): Promise<DailyReportResult> => {
    let result = await fetchDailyReport(url, credentials, { ...range, bySettlement }, options);
    for (let again = 1; again <= 2 && result.kind !== "report" && result.kind !== "refused"; again++) {
      await new Promise((resolve) => setTimeout(resolve, 500 * again));
      result = await fetchDailyReport(url, credentials, { ...range, bySettlement }, options);
    }
    return result;
  };
  const settled = await report(true);
  if (settled.kind !== "report") {
    const { error, retry } = failure(settled);
    return fail(error, retry);
  }
  const issued = await report(false);
  if (issued.kind !== "report") {
    const { error, retry } = failure(issued);
    return fail(error, retry);
  }

  const events = eventsOf(input.clientId, input.day, settled.records, issued.records);
  const total = events.length + 1;
  let eventsApplied = 0;
  for (const [at, event] of events.entries()) {
    const applied = await applyGatewayEvent(db, event);
    if (applied.applied) eventsApplied += 1;
    if ((at + 1) % PROGRESS_EVERY === 0)
      await progress({ done: at + 1, total, step: "applying settlements and returns" });
  }
  await progress({ done: events.length, total, step: "comparing with the ledger" });

  const comparison = await compareDay(db, input.clientId, input.day, settled.records, issued.records);
  await saveDay(db, input, {
    status: "done",
    gatewayCount: comparison.gateway.count,
    gatewayTotal: comparison.gateway.total,
    ledgerCount: comparison.ledger.count,
    ledgerTotal: comparison.ledger.total,
    differences: comparison.differences satisfies ReconciliationDifference[],
    checkedAt: new Date(),
  });
  await progress({ done: total, total, step: "finished" });
  return { kind: "done", reconciliationId, eventsApplied, ...comparison };
}

/** Marks the day failed after an error the run did not expect (the job retries it; the schedule may too). */
export async function markDayFailed(
  db: Database,
  clientId: number,
  day: string,
  error: string,
): Promise<void> {
  await db
    .update(gatewayReconciliations)
    .set({ status: "failed", error: error.slice(0, 2000), checkedAt: new Date(), updatedAt: sql`now()` })
    .where(and(eq(gatewayReconciliations.clientId, clientId), eq(gatewayReconciliations.day, day)));
}

/** Whether the client's day was already reconciled or is being reconciled (the daily schedule skips it). */
export async function dayTaken(db: Database, clientId: number, day: string): Promise<boolean> {
  const [row] = await db
    .select({ status: gatewayReconciliations.status })
    .from(gatewayReconciliations)
    .where(and(eq(gatewayReconciliations.clientId, clientId), eq(gatewayReconciliations.day, day)));
  return row !== undefined && row.status !== "failed";
}
