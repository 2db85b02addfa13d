import { randomUUID } from "node:crypto";
import type { JobRun, Reconciliation, ReconciliationSummary } from "@cyclebill/domain";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { businessToday } from "../../clock.js";
import { clients, customerPaymentMethods, customers, paymentAttempts } from "../../db/tables.js";
import {
  cardPayment,
  customerWithStatement,
  makePayment,
  usePaymentFixture,
} from "../../test-support/payment-fixture.js";
import { pollUntil } from "../../test-support/poll-until.js";

// The whole loop against the gateway sandbox itself, no stand-in: payments approved there, then
// returned, charged back and reported through the sandbox's own controls, its daily report and its
// Trans Notify posts, reaching the books through the reconciliation and the notify door.

const fixture = usePaymentFixture({ jobs: { workers: 1 } });
const admin = () => fixture.testApp.client(fixture.tenants.adminToken);
const ACH = { paymentMethod: "check", checkRoutingNum: "123456780", checkAccountNum: "99887766" };

async function paidAttempt(clientId: number, body: (token: string) => Record<string, unknown>) {
  const { customerId, token } = await customerWithStatement(fixture.testApp, clientId, "100.00");
  const answer = await makePayment(fixture.testApp, body(token), randomUUID());
  expect(answer.body).toMatchObject({ approved: true });
  const [attempt] = await fixture.testApp.db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.clientId, clientId), eq(paymentAttempts.customerId, customerId)));
  if (!attempt) throw new Error("no attempt");
  return attempt;
}

async function balanceOf(customerId: number): Promise<string> {
  const [row] = await fixture.testApp.db
    .select({ balance: customers.totalBalance })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row?.balance ?? "";
}

async function attemptNow(id: number) {
  const [row] = await fixture.testApp.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, id));
  return row;
}

/** Runs the day's reconciliation as the admin would and answers the day's report. */
async function reconcile(clientId: number, day: string): Promise<Reconciliation> {
  const started = await admin().post("/api/gateway/reconcile/", undefined, {
    client_id: clientId,
    date: day,
  });
  expect(started.status).toBe(202);
  const run = started.body as JobRun;
  const ended = await pollUntil(
    async () => (await admin().get(`/api/jobs/${run.id}/`, { client_id: clientId })).body as JobRun,
    (current) => current.status === "succeeded" || current.status === "failed",
    20_000,
  );
  expect(ended).toMatchObject({ status: "succeeded" });
  const list = await admin().get("/api/gateway/reconciliations/", { client_id: clientId, date: day });
  const [summary] = (list.body as { results: ReconciliationSummary[] }).results;
  if (!summary) throw new Error("no reconciliation of the day");
  const detail = await admin().get(`/api/gateway/reconciliations/${summary.id}/`, { client_id: clientId });
  expect(detail.status).toBe(200);
  return detail.body as Reconciliation;
}

describe("returns and chargebacks from the sandbox reach the books", () => {
  it("an ACH return and a card chargeback, read from the daily report, reverse the payments once", async () => {
    const clientId = fixture.tenants.a.clientId;
    const ach = await paidAttempt(clientId, (token) => ({ ...ACH, statementId: token, amount: "21.00" }));
    const card = await paidAttempt(clientId, (token) => cardPayment(token, "23.00"));
    expect(ach.settlementStatus).toBe("pending");
    const today = businessToday();
    fixture.sandbox.returnTransaction(ach.gatewayTransId, "R01");
    fixture.sandbox.chargeback(card.gatewayTransId, { code: "4837", reason: "No cardholder authorization" });

    const day = await reconcile(clientId, today);
    expect(await attemptNow(ach.id)).toMatchObject({ settlementStatus: "returned" });
    expect(await attemptNow(card.id)).toMatchObject({ settlementStatus: "charged_back" });
    expect(await balanceOf(ach.customerId)).toBe("100.00");
    expect(await balanceOf(card.customerId)).toBe("100.00");
    const lines = await admin().get("/api/transactions/", {
      client_id: clientId,
      customer__id: ach.customerId,
    });
    expect(JSON.stringify(lines.body)).toContain("R01");
    // The day's returns and chargebacks, as the reconciliation screen lists them under the day.
    const ofTheDay = await admin().get("/api/gateway/events/", { client_id: clientId, date: today });
    expect(
      (ofTheDay.body as { results: { kind: string; code: string }[] }).results
        .filter((event) => event.kind !== "settled")
        .map((event) => [event.kind, event.code])
        .sort(),
    ).toEqual([
      ["charged_back", "4837"],
      ["returned", "R01"],
    ]);
    // Read again: nothing applies twice.
    await reconcile(clientId, today);
    expect(await balanceOf(ach.customerId)).toBe("100.00");
    expect(day.differences).toEqual([]);
  });

  it("a Trans Notify post of a return is applied once a lookup confirms it", async () => {
    const clientId = fixture.tenants.b.clientId;
    const [client] = await fixture.testApp.db
      .select({ clientNo: clients.clientNo })
      .from(clients)
      .where(eq(clients.id, clientId));
    fixture.sandbox.setNotifyUrl(`${fixture.testApp.baseUrl}/api/gateway/notify/${client?.clientNo}/`);
    try {
      const ach = await paidAttempt(clientId, (token) => ({
        ...ACH,
        customer_id: undefined,
        statementId: token,
        amount: "31.00",
      }));
      fixture.sandbox.returnTransaction(ach.gatewayTransId, "R10");
      await fixture.sandbox.notifyIdle();
      await pollUntil(
        () => attemptNow(ach.id),
        (row) => row?.settlementStatus === "returned",
        10_000,
      );
      expect(await balanceOf(ach.customerId)).toBe("100.00");
      const [method] = await fixture.testApp.db
        .select()
        .from(customerPaymentMethods)
        .where(eq(customerPaymentMethods.customerId, ach.customerId));
      // Not stored by this payment (the public page keeps nothing unless asked); R10 is recorded.
      expect(method?.doNotDebit ?? false).toBe(false);
    } finally {
      fixture.sandbox.setNotifyUrl(null);
    }
  });
});
