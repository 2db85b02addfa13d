import { randomUUID } from "node:crypto";
import { startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import type { JobRun, Reconciliation, ReconciliationSummary } from "@cyclebill/domain";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businessToday } from "../../clock.js";
import { clients, gatewayEvents, gatewayReconciliations, paymentAttempts } from "../../db/tables.js";
import {
  startReportStandIn,
  type ReportRow,
  type ReportStandIn,
} from "../../test-support/daily-report-stand-in.js";
import {
  GATEWAY_ACCOUNT_A,
  GATEWAY_ACCOUNT_B,
  cardPayment,
  customerWithStatement,
  makePayment,
} from "../../test-support/payment-fixture.js";
import { pollUntil } from "../../test-support/poll-until.js";
import { dayBefore, startDailyReconciliations } from "./gateway-reconcile-run.js";
import { gatewayAccountFields } from "../../test-support/stored-cards.js";
import {
  createTenantFixture,
  startTestApp,
  type TenantFixture,
  type TestApp,
} from "../../test-support/test-app.js";

// The reconciliation of a client's day over real HTTP: payments made through the API to the
// gateway sandbox, BluePay's daily report served by a stand-in from records the test writes, the
// run as a job, and the report as the API answers it.

let sandbox: Sandbox;
let standIn: ReportStandIn;
let testApp: TestApp;
let tenants: TenantFixture;

beforeAll(async () => {
  sandbox = await startSandbox({ accounts: [GATEWAY_ACCOUNT_A, GATEWAY_ACCOUNT_B], demoAccount: false });
  standIn = await startReportStandIn(sandbox.url, [GATEWAY_ACCOUNT_A, GATEWAY_ACCOUNT_B]);
  testApp = await startTestApp({
    bluepay: { url: standIn.bp20postUrl, mode: "TEST", timeoutMs: 5_000 },
    jobs: { workers: 1 },
  });
  tenants = await createTenantFixture(testApp);
  for (const [tenant, account] of [
    [tenants.a, GATEWAY_ACCOUNT_A],
    [tenants.b, GATEWAY_ACCOUNT_B],
  ] as const)
    await testApp.db
      .update(clients)
      .set(gatewayAccountFields(testApp.config.secretsKey, account))
      .where(eq(clients.id, tenant.clientId));
}, 60_000);

afterAll(async () => {
  await testApp?.close();
  await standIn?.close();
  await sandbox?.close();
});

const admin = () => testApp.client(tenants.adminToken);

/** The day after today: today's payments belong to it (approved the day before, settled on it). */
function tomorrow(): string {
  const date = new Date(`${businessToday()}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** A public-page card payment of `amount` for a new customer of the client: its approved attempt. */
async function paid(clientId: number, amount: string) {
  const { token } = await customerWithStatement(testApp, clientId, "200.00");
  const response = await makePayment(testApp, cardPayment(token, amount), randomUUID());
  expect(response.body).toMatchObject({ approved: true });
  const [attempt] = await testApp.db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.clientId, clientId),
        eq(paymentAttempts.amount, amount),
        eq(paymentAttempts.status, "approved"),
      ),
    );
  if (!attempt) throw new Error("no approved attempt");
  return attempt;
}

function settledRow(transId: string, amount: string, day: string, orderId = ""): ReportRow {
  return {
    id: transId,
    payment_type: "CREDIT",
    trans_type: "SALE",
    amount,
    payment_account: "xxxxxxxxxxxx1111",
    order_id: orderId,
    status: "1",
    f_void: "0",
    message: "Approved Sale",
    origin: "bp20post",
    issue_date: `${businessToday()} 10:00:00`,
    settle_date: `${day} 01:30:00`,
    settlement_id: "300000000001",
    company_name: "Payer, Sons & Co",
  };
}

async function reconcile(clientId: number, day: string): Promise<JobRun> {
  const started = await admin().post("/api/gateway/reconcile/", undefined, {
    client_id: clientId,
    date: day,
  });
  expect(started.status).toBe(202);
  const run = started.body as JobRun;
  return pollUntil(
    async () => (await admin().get(`/api/jobs/${run.id}/`, { client_id: clientId })).body as JobRun,
    (current) => current.status === "succeeded" || current.status === "failed",
    20_000,
  );
}

async function dayOf(clientId: number, day: string): Promise<Reconciliation> {
  const list = await admin().get("/api/gateway/reconciliations/", { client_id: clientId, date: day });
  expect(list.status).toBe(200);
  const [summary] = (list.body as { results: ReconciliationSummary[] }).results;
  const detail = await admin().get(`/api/gateway/reconciliations/${summary?.id}/`, { client_id: clientId });
  expect(detail.status).toBe(200);
  return detail.body as Reconciliation;
}

describe("a day reconciled with BluePay's reports", () => {
  it("lists a difference of each kind, applies the day's events, and a re-run replaces the day", async () => {
    const day = tomorrow();
    const { clientId } = tenants.a;
    const matched = await paid(clientId, "45.00");
    const differs = await paid(clientId, "47.00");
    const missing = await paid(clientId, "49.00");
    const [unknown] = await testApp.db
      .insert(paymentAttempts)
      .values({
        clientId,
        customerId: matched.customerId,
        idempotencyKey: randomUUID(),
        kind: "sale",
        source: "staff",
        method: "card",
        amount: "13.00",
        status: "unknown",
      })
      .returning({ id: paymentAttempts.id });
    standIn.setRows(GATEWAY_ACCOUNT_A.accountId, [
      settledRow(matched.gatewayTransId, "45.00", day, matched.orderId),
      settledRow(differs.gatewayTransId, "48.00", day),
      settledRow("999000000001", "11.00", day, "=2+5"),
      {
        ...settledRow("999000000002", "45.00", day),
        trans_type: "REFUND",
        origin: "REJECT",
        master_id: matched.gatewayTransId,
        auth_code: "4837",
        message: "Chargeback: no cardholder authorization",
        settle_date: "",
        issue_date: `${day} 09:00:00`,
      },
    ]);

    const run = await reconcile(clientId, day);
    expect(run).toMatchObject({ kind: "gateway-reconcile", status: "succeeded", step: "finished" });
    expect(run.done).toBe(run.total);
    const first = await dayOf(clientId, day);
    expect(first).toMatchObject({
      day,
      status: "done",
      job_run_id: run.id,
      gateway_count: 3,
      gateway_total: "104.00",
      ledger_count: 3,
      ledger_total: "141.00",
      difference_counts: {
        missing_in_ledger: 1,
        missing_at_gateway: 1,
        amount_differs: 1,
        unknown_attempt: 1,
      },
    });
    expect(run.result).toMatchObject({ reconciliation_id: first.id, difference_count: 4 });
    expect(first.differences).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: "missing_in_ledger",
          trans_id: "999000000001",
          gateway_amount: "11.00",
        }),
        expect.objectContaining({
          kind: "amount_differs",
          attempt_id: differs.id,
          gateway_amount: "48.00",
          ledger_amount: "47.00",
        }),
        expect.objectContaining({
          kind: "missing_at_gateway",
          attempt_id: missing.id,
          trans_id: missing.gatewayTransId,
          ledger_amount: "49.00",
        }),
        expect.objectContaining({ kind: "unknown_attempt", attempt_id: unknown?.id }),
      ]),
    );
    // The settlements and the chargeback went through applyGatewayEvent.
    const events = await testApp.db.select().from(gatewayEvents).where(eq(gatewayEvents.clientId, clientId));
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "settled", attemptId: matched.id, eventDate: day }),
        expect.objectContaining({ kind: "charged_back", attemptId: matched.id, code: "4837" }),
      ]),
    );
    const [settled] = await testApp.db
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.id, matched.id));
    expect(settled?.settledOn).toBe(day);
    // The request was sealed as our other calls are, for the day by settlement and by issue date.
    expect(standIn.requests.slice(-2)).toEqual([
      expect.objectContaining({
        REPORT_START_DATE: day,
        QUERY_BY_SETTLEMENT: "1",
        TPS_HASH_TYPE: "HMAC_SHA512",
      }),
      expect.not.objectContaining({ QUERY_BY_SETTLEMENT: "1" }),
    ]);

    // The CSV: totals, then one line per difference; a value starting like a formula is neutralised.
    const csv = await admin().request("GET", `/api/gateway/reconciliations/${first.id}/`, {
      query: { client_id: clientId, format: "csv" },
    });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.text).toContain(`${day},done,3,104.00,3,141.00,4`);
    expect(csv.text).toContain(`${day},missing_in_ledger,999000000001,'=2+5,,,11.00,,`);
    expect(csv.text.split("\r\n").filter((line) => line.startsWith(`${day},`))).toHaveLength(5);

    // Corrected at the gateway: the re-run replaces the day (one row, the same id).
    standIn.setRows(GATEWAY_ACCOUNT_A.accountId, [
      settledRow(matched.gatewayTransId, "45.00", day),
      settledRow(differs.gatewayTransId, "47.00", day),
      settledRow(missing.gatewayTransId, "49.00", day),
    ]);
    await testApp.db
      .update(paymentAttempts)
      .set({ status: "error", message: "closed by the test" })
      .where(eq(paymentAttempts.id, unknown?.id ?? 0));
    expect(await reconcile(clientId, day)).toMatchObject({ status: "succeeded" });
    const second = await dayOf(clientId, day);
    expect(second).toMatchObject({
      id: first.id,
      gateway_count: 3,
      gateway_total: "141.00",
      ledger_count: 3,
      ledger_total: "141.00",
      difference_count: 0,
      differences: [],
    });
    const rows = await testApp.db
      .select()
      .from(gatewayReconciliations)
      .where(and(eq(gatewayReconciliations.clientId, clientId), eq(gatewayReconciliations.day, day)));
    expect(rows).toHaveLength(1);
  });

  it("a clean day: what BluePay settled is what the ledger holds", async () => {
    const day = tomorrow();
    const { clientId } = tenants.b;
    const sale = await paid(clientId, "21.00");
    standIn.setRows(GATEWAY_ACCOUNT_B.accountId, [settledRow(sale.gatewayTransId, "21.00", day)]);
    expect(await reconcile(clientId, day)).toMatchObject({
      status: "succeeded",
      result: { difference_count: 0 },
    });
    expect(await dayOf(clientId, day)).toMatchObject({
      gateway_count: 1,
      gateway_total: "21.00",
      ledger_count: 1,
      ledger_total: "21.00",
      differences: [],
    });
  });

  it("the daily schedule reconciles yesterday for every client with a key, once", async () => {
    const yesterday = dayBefore(businessToday());
    standIn.setRows(GATEWAY_ACCOUNT_A.accountId, []);
    standIn.setRows(GATEWAY_ACCOUNT_B.accountId, []);
    const daily = async () => {
      await testApp.jobs?.enqueue("gateway-reconcile-daily", {});
      return Promise.all(
        [tenants.a, tenants.b].map((tenant) =>
          pollUntil(
            async () =>
              (
                (
                  await admin().get("/api/gateway/reconciliations/", {
                    client_id: tenant.clientId,
                    date: yesterday,
                  })
                ).body as { results: ReconciliationSummary[] }
              ).results,
            (results) => results[0]?.status === "done",
            20_000,
          ),
        ),
      );
    };
    const [a, b] = await daily();
    expect(a).toMatchObject([{ day: yesterday, status: "done", gateway_count: 0 }]);
    expect(b).toMatchObject([{ day: yesterday, status: "done" }]);
    const runs = await admin().get("/api/jobs/", {
      client_id: tenants.a.clientId,
      kind: "gateway-reconcile",
    });
    const scheduled = (runs.body as { results: JobRun[] }).results.find(
      (run) => run.id === a?.[0]?.job_run_id,
    );
    expect(scheduled).toMatchObject({ status: "succeeded", created_by: null });
    // Again: the day is taken by then, so the schedule starts no second run.
    expect(
      await startDailyReconciliations(testApp.db, () => Promise.reject(new Error("enqueued")), yesterday),
    ).toBe(0);
  });

  it("refuses a bad date, a non-admin, and a client without a gateway key; another client's day is not found", async () => {
    const { a, b } = tenants;
    const bad = await admin().post("/api/gateway/reconcile/", undefined, {
      client_id: a.clientId,
      date: "2026-02-30",
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("2026-02-30 is not a real date");
    const owner = testApp.client(a.ownerToken);
    expect((await owner.post("/api/gateway/reconcile/", undefined, { date: tomorrow() })).status).toBe(403);
    const [day] = (
      (await owner.get("/api/gateway/reconciliations/")).body as { results: ReconciliationSummary[] }
    ).results;
    expect(day?.client_id).toBe(a.clientId);
    const otherOwner = testApp.client(b.ownerToken);
    expect((await otherOwner.get(`/api/gateway/reconciliations/${day?.id}/`)).status).toBe(404);
    expect((await otherOwner.get("/api/gateway/reconciliations/", { client_id: a.clientId })).status).toBe(
      404,
    );
    expect((await testApp.client(a.staffToken).get("/api/gateway/reconciliations/")).status).toBe(403);

    await testApp.db.update(clients).set({ bluepayAccountId: "" }).where(eq(clients.id, b.clientId));
    const keyless = await admin().post("/api/gateway/reconcile/", undefined, {
      client_id: b.clientId,
      date: tomorrow(),
    });
    expect(keyless.status).toBe(400);
    expect(JSON.stringify(keyless.body)).toContain("no payment gateway key");
  });
});
