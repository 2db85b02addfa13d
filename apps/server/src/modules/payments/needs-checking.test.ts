import {
  LOOKUP_WINDOW_MS,
  needsCheckingAttemptSchema,
  pageSchema,
  resolvedAttemptSchema,
  type PaymentAttempt,
  type TransactionRecord,
} from "@cyclebill/domain";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { currentClock, setClock } from "../../clock.js";
import {
  cardPayment,
  customerWithStatement,
  forgetRateLimits,
  makePayment,
  startPaymentFixture,
  type PaymentFixture,
} from "../../test-support/payment-fixture.js";
import { startMisbehavingGateway, type MisbehavingGateway } from "../../test-support/misbehaving-gateway.js";
import type { TenantFixture, TestApp } from "../../test-support/test-app.js";
import { CHARGED_BY_PERSON_MESSAGE, NOT_UNKNOWN_MESSAGE } from "./needs-checking.js";

// The "needs checking" list and a person's two verdicts on an attempt the gateway never showed:
// "it was charged" posts the payment, "it was not charged" closes it; both keep who, when and why.

let fixture: PaymentFixture | undefined;
let gw: MisbehavingGateway;
let testApp: TestApp;
let tenants: TenantFixture;
let keyNo = 0;
const realClock = currentClock();
const listSchema = pageSchema(needsCheckingAttemptSchema);

beforeAll(async () => {
  fixture = await startPaymentFixture({
    gatewayTimeoutMs: 2_000,
    sandboxNow: () => currentClock().now(),
    standIn: async (url) => (gw = await startMisbehavingGateway(url)),
  });
  ({ testApp, tenants } = fixture);
});

afterAll(async () => {
  await fixture?.close();
});

beforeEach(async () => {
  await forgetRateLimits(testApp);
});

afterEach(() => setClock(realClock));

const owner = () => testApp.client(tenants.a.ownerToken);
const pay = (body: unknown, token?: string) => makePayment(testApp, body, `check-${++keyNo}`, token);

async function lostPayment(amount: string) {
  const made = await customerWithStatement(testApp, tenants.a.clientId, "90.00");
  gw.next({ kind: "lose" });
  gw.stq({ kind: "no-match" });
  expect((await pay(cardPayment(made.token, amount))).body).toMatchObject({ status: "unknown" });
  const attempts = await owner().get("/api/payment-attempts/", { customer_id: made.customerId });
  const [attempt] = (attempts.body as { results: PaymentAttempt[] }).results;
  if (!attempt) throw new Error("no attempt");
  return { ...made, attemptId: attempt.id };
}

async function paymentsOf(customerId: number): Promise<TransactionRecord[]> {
  const response = await owner().get("/api/transactions/", { customer__id: customerId, limit: 100 });
  return (response.body as { results: TransactionRecord[] }).results.filter((t) => t.code_type === "payment");
}

describe("GET /api/payment-attempts/needs-checking/", () => {
  it("lists unknown attempts with what was sent and the lookups; past the window they need checking", async () => {
    const lost = await lostPayment("33.00");
    await owner().post("/api/payment-attempts/settle/");
    const soon = listSchema.parse((await owner().get("/api/payment-attempts/needs-checking/")).body);
    const row = soon.results.find((a) => a.id === lost.attemptId);
    expect(row).toMatchObject({
      customer_id: lost.customerId,
      kind: "sale",
      needs_checking: false,
      sent: {
        order_id: `${testApp.config.installationId}-${lost.attemptId}`,
        amount: "33.00",
        trans_type: "SALE",
      },
    });
    expect(row?.lookups).toBeGreaterThanOrEqual(2);
    expect(row?.evidence.map((e) => [e.step, e.outcome])).toEqual([
      ["call", "no-answer"],
      ...Array.from({ length: row?.lookups ?? 0 }, () => ["lookup", "not-found"]),
    ]);
    // Three days on the gateway still shows nothing: a person must decide.
    const later = Date.now() + LOOKUP_WINDOW_MS + 60_000;
    setClock({ now: () => new Date(later) });
    const late = listSchema.parse((await owner().get("/api/payment-attempts/needs-checking/")).body);
    expect(late.results.find((a) => a.id === lost.attemptId)).toMatchObject({ needs_checking: true });
    // Another client's list does not show it.
    const other = listSchema.parse(
      (await testApp.client(tenants.b.ownerToken).get("/api/payment-attempts/needs-checking/")).body,
    );
    expect(other.results.map((a) => a.id)).not.toContain(lost.attemptId);
  });
});

describe("POST /api/payment-attempts/{id}/resolve/", () => {
  it("'charged' posts the payment once, recording who and why; the customer can pay again after", async () => {
    const lost = await lostPayment("35.00");
    const url = `/api/payment-attempts/${lost.attemptId}/resolve/`;
    expect(
      (await testApp.client(tenants.a.staffToken).post(url, { outcome: "charged", reason: "x" })).status,
    ).toBe(403);
    expect(
      (await testApp.client(tenants.b.ownerToken).post(url, { outcome: "charged", reason: "x" })).status,
    ).toBe(404);
    const noReason = await owner().post(url, { outcome: "charged", reason: "  " });
    expect(noReason.status).toBe(400);
    expect(noReason.body).toHaveProperty("reason");
    const resolved = await owner().post(url, {
      outcome: "charged",
      reason: "Seen in the BluePay console",
      trans_id: "123456789012",
    });
    expect(resolved.status).toBe(200);
    expect(resolvedAttemptSchema.parse(resolved.body)).toMatchObject({
      status: "approved",
      resolution_reason: "Seen in the BluePay console",
      resolved_by_user_id: expect.any(Number),
    });
    expect(resolved.body).toMatchObject({ message: expect.stringMatching(/approved/i) });
    expect(CHARGED_BY_PERSON_MESSAGE).toMatch(/approved/i);
    expect((await paymentsOf(lost.customerId)).map((t) => [t.amount, t.gateway_trans_id])).toEqual([
      ["35.00", "123456789012"],
    ]);
    const twice = await owner().post(url, { outcome: "not_charged", reason: "again" });
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ detail: NOT_UNKNOWN_MESSAGE });
    const list = listSchema.parse((await owner().get("/api/payment-attempts/needs-checking/")).body);
    expect(list.results.map((a) => a.id)).not.toContain(lost.attemptId);
    gw.stq({ kind: "proxy" });
    expect((await pay(cardPayment(lost.token, "11.00"))).body).toMatchObject({ approved: true });
  });

  it("'not charged' closes it without posting, and the customer can pay again", async () => {
    const lost = await lostPayment("37.00");
    const resolved = await testApp
      .client(tenants.adminToken)
      .post(`/api/payment-attempts/${lost.attemptId}/resolve/?client_id=${tenants.a.clientId}`, {
        outcome: "not_charged",
        reason: "Not in BluePay's daily report",
      });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({
      status: "error",
      transaction_id: null,
      resolution_reason: "Not in BluePay's daily report",
    });
    expect(await paymentsOf(lost.customerId)).toEqual([]);
    gw.stq({ kind: "proxy" });
    expect((await pay(cardPayment(lost.token, "13.00"))).body).toMatchObject({ approved: true });
  });
});
