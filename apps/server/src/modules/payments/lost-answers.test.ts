import type { Sandbox, SandboxTransaction } from "@cyclebill/gateway-sandbox";
import type { NeedsCheckingAttempt, PaymentAttempt, TransactionRecord } from "@cyclebill/domain";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { customerPaymentMethods, jobRuns, users } from "../../db/tables.js";
import {
  GATEWAY_ACCOUNT_A,
  cardPayment,
  customerWithStatement,
  forgetRateLimits,
  makePayment,
  startPaymentFixture,
  type PaymentFixture,
} from "../../test-support/payment-fixture.js";
import { luhnCard } from "../../test-support/stored-cards.js";
import { startMisbehavingGateway, type MisbehavingGateway } from "../../test-support/misbehaving-gateway.js";
import type { TenantFixture, TestApp } from "../../test-support/test-app.js";
import { paymentGatewayOf } from "./payment-gateway.js";
import { runCardRunChunk } from "./run-card-run.js";
import { startBulkCardRun, type CardRunChunk } from "./start-card-run.js";
import { IN_FLIGHT_MESSAGE } from "./unknown-attempts.js";

// Issue 37, points 1-5: a gateway whose answers go missing or come back wrong (a stand-in in front
// of the sandbox, over HTTP). An attempt without a usable answer is unknown, is settled only by a
// lookup record that matches it, and no path charges its customer again meanwhile.

let fixture: PaymentFixture | undefined;
let gw: MisbehavingGateway;
let sandbox: Sandbox;
let testApp: TestApp;
let tenants: TenantFixture;
let keyNo = 0;

beforeAll(async () => {
  fixture = await startPaymentFixture({
    gatewayTimeoutMs: 2_000,
    standIn: async (url) => (gw = await startMisbehavingGateway(url)),
  });
  ({ sandbox, testApp, tenants } = fixture);
});

afterAll(async () => {
  await fixture?.close();
});

beforeEach(async () => {
  await forgetRateLimits(testApp);
  gw.stq({ kind: "proxy" });
  gw.realShaped(null);
});

const owner = () => testApp.client(tenants.a.ownerToken);
const pay = (body: unknown, token?: string) => makePayment(testApp, body, `lost-${++keyNo}`, token);
const orderIdOf = (attemptId: number) => `${testApp.config.installationId}-${attemptId}`;

function salesOf(attemptIds: readonly number[]): SandboxTransaction[] {
  const orders = new Set(attemptIds.map(orderIdOf));
  return sandbox.transactions().filter((t) => t.transType === "SALE" && orders.has(t.orderId));
}

async function attemptsOf(customerId: number): Promise<PaymentAttempt[]> {
  const response = await owner().get("/api/payment-attempts/", { customer_id: customerId });
  expect(response.status).toBe(200);
  return (response.body as { results: PaymentAttempt[] }).results;
}

async function paymentsOf(customerId: number): Promise<TransactionRecord[]> {
  const response = await owner().get("/api/transactions/", { customer__id: customerId, limit: 100 });
  return (response.body as { results: TransactionRecord[] }).results.filter((t) => t.gateway_trans_id);
}

async function evidenceOf(attemptId: number): Promise<NeedsCheckingAttempt | undefined> {
  const response = await owner().get("/api/payment-attempts/needs-checking/", { limit: 100 });
  expect(response.status).toBe(200);
  return (response.body as { results: NeedsCheckingAttempt[] }).results.find((a) => a.id === attemptId);
}

let cardNo = 0;

/** Staff store a card of its own for the customer (a $0.00 AUTH through the stand-in). */
async function storeCard(customerId: number, token: string) {
  const response = await pay(
    {
      ...cardPayment(token, "0.00", { ccNum: luhnCard("5", 37_000 + ++cardNo) }),
      statementId: undefined,
      customer_id: customerId,
      recordPayment: true,
    },
    tenants.a.ownerToken,
  );
  expect(response.body, JSON.stringify(response.body)).toMatchObject({ approved: true });
}

/** One card run (Process CC, or autopay with the amount due) over these customers, run in this process. */
async function cardRun(customerIds: number[], autopayDue?: string) {
  const [user] = await testApp.db.select().from(users).where(eq(users.clientId, tenants.a.clientId)).limit(1);
  if (!user) throw new Error("no user");
  const chunks: CardRunChunk[] = [];
  const started = await startBulkCardRun(
    testApp.db,
    {
      clientId: tenants.a.clientId,
      user: { ...user, username: user.email, isAdmin: false, clientId: tenants.a.clientId },
    },
    customerIds,
    (_tx, queued) => {
      chunks.push(...queued.map((chunk) => chunk.payload));
      return Promise.resolve();
    },
  );
  for (const chunk of chunks) {
    const run: CardRunChunk = autopayDue
      ? {
          ...chunk,
          source: "autopay",
          items: chunk.items.map((item) => ({ ...item, amountDue: autopayDue })),
        }
      : chunk;
    await runCardRunChunk(testApp.db, paymentGatewayOf(testApp.config), run);
  }
  const [job] = await testApp.db.select().from(jobRuns).where(eq(jobRuns.id, started.job.id));
  return { result: job?.result ?? {} };
}

describe("point 1: a lost answer is never followed by a second charge", () => {
  it("a card run's lost sale stays unknown while stq shows no match; no run charges again; the lookup posts it once", async () => {
    const { customerId, token } = await customerWithStatement(testApp, tenants.a.clientId, "45.00");
    await storeCard(customerId, token);
    gw.next({ kind: "lose" });
    gw.stq({ kind: "no-match" });
    const run = await cardRun([customerId]);
    expect(run.result).toMatchObject({ approved_count: 0, declined_count: 0, unknown_count: 1 });
    // "Not found", also after the call's time-out, is not "nothing was charged".
    expect((await owner().post("/api/payment-attempts/settle/")).body).toMatchObject({ settled: 0 });
    const [lost] = await attemptsOf(customerId);
    expect(lost).toMatchObject({ kind: "sale", status: "unknown", amount: "45.00" });
    // A second run, and autopay, skip the customer, saying why.
    await cardRun([customerId]);
    await cardRun([customerId], "45.00");
    const after = await attemptsOf(customerId);
    expect(after.filter((a) => a.status === "skipped").map((a) => a.message)).toEqual([
      IN_FLIGHT_MESSAGE,
      IN_FLIGHT_MESSAGE,
    ]);
    const sales = salesOf(after.map((a) => a.id));
    expect(sales.map((t) => t.amount)).toEqual(["45.00"]);
    expect(await paymentsOf(customerId)).toEqual([]);
    // Once stq shows it, the one charge is recorded.
    gw.stq({ kind: "proxy" });
    expect((await owner().post("/api/payment-attempts/settle/")).body).toMatchObject({ settled: 1 });
    expect((await attemptsOf(customerId)).find((a) => a.id === lost?.id)).toMatchObject({
      status: "approved",
      gateway_trans_id: sales[0]?.transId,
    });
    expect((await paymentsOf(customerId)).map((t) => t.amount)).toEqual(["45.00"]);
  });

  it("the public page and staff are refused with 409 while a sale of the customer is unknown", async () => {
    const { customerId, token } = await customerWithStatement(testApp, tenants.a.clientId, "50.00");
    gw.next({ kind: "lose" });
    gw.stq({ kind: "no-match" });
    const lost = await pay(cardPayment(token, "21.00"));
    expect(lost.body).toMatchObject({ status: "unknown", approved: false, account_balance: "50.00" });
    const again = await pay(cardPayment(token, "21.00"));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: IN_FLIGHT_MESSAGE });
    const staff = await pay(
      { ...cardPayment(token, "5.00"), statementId: undefined, customer_id: customerId },
      tenants.a.staffToken,
    );
    expect(staff.status).toBe(409);
    const attempts = await attemptsOf(customerId);
    expect(attempts.map((a) => a.status)).toEqual(["unknown"]);
    expect(salesOf(attempts.map((a) => a.id))).toHaveLength(1);
  });
});

describe("point 2 and 5: a lookup record settles an attempt only when it is this attempt's", () => {
  it("keeps a record of another order (another customer's, or another installation's same attempt id) as evidence", async () => {
    const other = await customerWithStatement(testApp, tenants.a.clientId, "30.00");
    const paid = await pay(cardPayment(other.token, "11.00"));
    expect(paid.body).toMatchObject({ approved: true });
    const [otherSale] = await attemptsOf(other.customerId);
    const found = sandbox.transactions().find((t) => t.transId === otherSale?.gateway_trans_id);
    const { customerId, token } = await customerWithStatement(testApp, tenants.a.clientId, "60.00");
    gw.next({ kind: "lose" });
    gw.stq({
      kind: "record",
      fields: {
        id: found?.transId ?? "",
        status: "1",
        trans_type: "SALE",
        amount: "11.00",
        order_id: found?.orderId ?? "",
        payment_account: found?.mask ?? "",
        message: "APPROVED",
      },
    });
    expect((await pay(cardPayment(token, "41.00"))).body).toMatchObject({ status: "unknown" });
    const [attempt] = await attemptsOf(customerId);
    expect(attempt).toMatchObject({ status: "unknown", gateway_trans_id: "" });
    const evidence = await evidenceOf(attempt?.id ?? 0);
    expect(evidence?.sent).toEqual({
      order_id: orderIdOf(attempt?.id ?? 0),
      amount: "41.00",
      trans_type: "SALE",
      mask: "xxxxxxxxxxxx1111",
    });
    expect(evidence?.evidence.at(-1)).toMatchObject({
      step: "lookup",
      outcome: "mismatch",
      found: { trans_id: found?.transId, amount: "11.00" },
    });
    // Another installation sharing the account: its attempt of the same id, same amount and card.
    gw.stq({
      kind: "record",
      fields: {
        id: "900000000001",
        status: "1",
        trans_type: "SALE",
        amount: "41.00",
        order_id: String(attempt?.id),
        payment_account: "xxxxxxxxxxxx1111",
        message: "APPROVED",
      },
    });
    await owner().post("/api/payment-attempts/settle/");
    expect((await attemptsOf(customerId))[0]).toMatchObject({ status: "unknown", transaction_id: null });
    expect((await evidenceOf(attempt?.id ?? 0))?.evidence.at(-1)).toMatchObject({
      outcome: "mismatch",
      detail: expect.stringContaining("order id"),
    });
    expect(await paymentsOf(customerId)).toEqual([]);
    expect(gw.requests().at(-1)?.ORDER_ID).toBe(orderIdOf(attempt?.id ?? 0));
  });
});

describe("point 3: an answer that cannot be used is looked up, never taken", () => {
  it.each([
    ["STATUS=1 without a TRANS_ID", { kind: "no-trans-id" as const }, "23.00"],
    ["an undocumented STATUS", { kind: "odd-status" as const, status: "2" }, "25.00"],
    ["a BP_STAMP that does not verify", { kind: "bad-stamp" as const }, "27.00"],
  ])(
    "%s: unknown, then settled by the matching record with its real TRANS_ID",
    async (_name, fault, amount) => {
      gw.stq({ kind: "no-match" });
      const { customerId, token } = await customerWithStatement(testApp, tenants.a.clientId, "60.00");
      gw.next(fault);
      expect((await pay(cardPayment(token, amount))).body).toMatchObject({
        status: "unknown",
        approved: false,
      });
      expect(await paymentsOf(customerId)).toEqual([]);
      gw.stq({ kind: "proxy" });
      await owner().post("/api/payment-attempts/settle/");
      const [attempt] = await attemptsOf(customerId);
      const [sale] = salesOf([attempt?.id ?? 0]);
      expect(sale?.transId).toMatch(/^\d+$/);
      expect(attempt).toMatchObject({ status: "approved", gateway_trans_id: sale?.transId });
      expect((await paymentsOf(customerId)).map((t) => [t.amount, t.gateway_trans_id])).toEqual([
        [amount, sale?.transId],
      ]);
    },
  );
});

describe("point 4: the answer's fields by RESPONSEVERSION, as BluePay answers", () => {
  it("sends RESPONSEVERSION and VERSION, reads STORED_ID, the mask and card type, and verifies BP_STAMP", async () => {
    gw.realShaped({ [GATEWAY_ACCOUNT_A.accountId]: GATEWAY_ACCOUNT_A.secretKey });
    const { customerId, token } = await customerWithStatement(testApp, tenants.a.clientId, "71.00");
    await storeCard(customerId, token);
    const auth = gw.requests().at(-1);
    expect(auth).toMatchObject({ TRANS_TYPE: "AUTH", RESPONSEVERSION: "8", VERSION: "3" });
    const [method] = await testApp.db
      .select()
      .from(customerPaymentMethods)
      .where(
        and(
          eq(customerPaymentMethods.clientId, tenants.a.clientId),
          eq(customerPaymentMethods.customerId, customerId),
        ),
      );
    const stored = sandbox.transactions().find((t) => t.transId === method?.token);
    expect(stored?.storedId).toMatch(/\S/);
    expect(method).toMatchObject({
      storedId: stored?.storedId,
      mask: stored?.mask,
      cardType: stored?.cardType,
    });
    // A merchant-initiated charge of the card on file carries the STORED_ID the first answer gave.
    await cardRun([customerId]);
    expect(gw.requests().at(-1)).toMatchObject({
      TRANS_TYPE: "SALE",
      MASTER_ID: method?.token,
      STORED_INDICATOR: "S",
      STORED_TYPE: "M",
      STORED_ID: stored?.storedId,
    });
    const attempts = await attemptsOf(customerId);
    expect(attempts[0], JSON.stringify(attempts)).toMatchObject({ status: "approved", amount: "71.00" });
  });
});
