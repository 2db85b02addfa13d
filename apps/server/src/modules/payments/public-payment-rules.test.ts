import {
  PAYMENT_LINK_INVALID_MESSAGE,
  PUBLIC_SAVE_METHOD_MESSAGE,
  paymentOverBalanceMessage,
  savedMethodAmountMessage,
  type PaymentLink,
} from "@cyclebill/domain";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { paymentLinks } from "../../db/tables.js";
import {
  MASTERCARD,
  cardPayment,
  customerWithStatement,
  makePayment,
  storedCard,
  usePaymentFixture,
} from "../../test-support/payment-fixture.js";
import { KEY_REUSED_MESSAGE } from "./send-attempt.js";

// Issue 29 point 5: the public page pays only what is owed, stores nothing without a staff-issued
// link, shows no more of the customer than the spec's payment info; a changed idempotent retry is 422.

const fixture = usePaymentFixture({ freshLimits: true });
let keyNo = 0;

const staffA = () => fixture.testApp.client(fixture.tenants.a.staffToken);

function pay(body: unknown, key = `rules-${++keyNo}`, token?: string) {
  return makePayment(fixture.testApp, body, key, token);
}

const sales = (amount: string) =>
  fixture.sandbox.transactions().filter((t) => t.transType === "SALE" && t.amount === amount);

/** Stores a card for the customer through the staff form (a $0.00 AUTH). */
async function storeCard(customerId: number): Promise<void> {
  const stored = await pay(storedCard({ customer_id: customerId }), undefined, fixture.tenants.a.staffToken);
  expect(stored.body).toMatchObject({ approved: true });
}

describe("the public page pays only what is owed", () => {
  it("refuses an amount above the balance due or of zero, charging nothing", async () => {
    const { token } = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, "41.00");
    const over = await pay(cardPayment(token, "41.01"));
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ amount: [paymentOverBalanceMessage("41.00")] });
    expect(paymentOverBalanceMessage("41.00")).toBe(
      "The amount cannot be more than the balance due of $41.00.",
    );
    const zero = await pay(cardPayment(token, "0.00"));
    expect(zero.status).toBe(400);
    expect(zero.body).toMatchObject({ amount: [expect.any(String)] });
    expect(sales("41.01")).toHaveLength(0);
    const exact = await pay(cardPayment(token, "41.00"));
    expect(exact.body).toMatchObject({ approved: true, account_balance: "0.00" });
    const nothingLeft = await pay(cardPayment(token, "1.00"));
    expect(nothingLeft.status).toBe(400);
    expect(nothingLeft.body).toEqual({ amount: ["This account has no balance due."] });
  });

  it("uses the saved method only for the statement's amount due", async () => {
    const { customerId, token } = await customerWithStatement(
      fixture.testApp,
      fixture.tenants.a.clientId,
      "31.00",
    );
    await storeCard(customerId);
    const other = await pay({ ...cardPayment(token, "12.00"), paymentMethod: "useSaved" });
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ amount: [savedMethodAmountMessage("31.00")] });
    expect(sales("12.00")).toHaveLength(0);
    const due = await pay({ ...cardPayment(token, "31.00"), paymentMethod: "useSaved" });
    expect(due.body).toMatchObject({ approved: true, account_balance: "0.00" });
  });

  it("never stores a method or changes autopay, and shows no email (but the city and state the form starts with)", async () => {
    const { customerId, token } = await customerWithStatement(
      fixture.testApp,
      fixture.tenants.a.clientId,
      "25.00",
    );
    await fixture.testApp.client().post("/api/payments/get-payment-info/", { statementId: token });
    const info = await fixture.testApp
      .client()
      .post("/api/payments/get-payment-info/", { statementId: token });
    expect(info.status).toBe(200);
    expect(Object.keys(info.body as object)).not.toContain("email");
    // Issue 41 point 7: the billing form starts with the whole address, city and state too.
    expect(info.body).toMatchObject({ address1: "9 Elm St", city: "Austin", state: "TX", zip: "73301" });

    for (const changes of [
      { savePaymentInfo: true },
      { autoPay: true },
      { savePaymentInfo: true, autoPay: true },
    ]) {
      const refused = await pay(cardPayment(token, "5.00", changes));
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ non_field_errors: [PUBLIC_SAVE_METHOD_MESSAGE] });
    }
    const record = await pay(cardPayment(token, "0.00", { recordPayment: true }));
    expect(record.status).toBe(400);
    const customer = await staffA().get(`/api/customers/${customerId}/`);
    expect(customer.body).toMatchObject({ bluepay_transaction_id: "", autopay_flag: false });
    expect(sales("5.00").length).toBe(0);
  });
});

describe("a staff-issued link stores a method from outside the office", () => {
  it("works once, within 7 days, for recordPayment only", async () => {
    const { customerId } = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, "20.00");
    const issued = await staffA().post(`/api/customers/${customerId}/payment-link/`);
    expect(issued.status).toBe(201);
    const link = issued.body as PaymentLink;
    const url = new URL(link.url);
    expect(url.pathname).toBe("/payments");
    expect(url.searchParams.get("recordPayment")).toBe("true");
    const days = (Date.parse(link.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const paymentLink = url.searchParams.get("link") ?? "";

    const info = await fixture.testApp.client().post("/api/payments/get-link-info/", { paymentLink });
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      hasStoredPaymentInfo: false,
      accountbalance: "20.00",
      statement: null,
    });
    expect(Object.keys(info.body as object)).not.toContain("email");

    const charge = await pay({ ...cardPayment("", "5.00"), statementId: undefined, paymentLink });
    expect(charge.status).toBe(400);
    expect(charge.body).toEqual({ non_field_errors: [PUBLIC_SAVE_METHOD_MESSAGE] });

    const stored = await pay({
      ...cardPayment("", "0.00"),
      statementId: undefined,
      recordPayment: true,
      autoPay: true,
      paymentLink,
    });
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ approved: true, amount_response: "0.00" });
    const customer = await staffA().get(`/api/customers/${customerId}/`);
    expect(customer.body).toMatchObject({ autopay_flag: true });

    const again = await pay({
      ...cardPayment("", "0.00"),
      statementId: undefined,
      recordPayment: true,
      paymentLink,
    });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: PAYMENT_LINK_INVALID_MESSAGE });
    const reread = await fixture.testApp.client().post("/api/payments/get-link-info/", { paymentLink });
    expect(reread.status).toBe(404);
  });

  it("refuses an expired link and a guessed one", async () => {
    const { customerId } = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, "20.00");
    const issued = await staffA().post(`/api/customers/${customerId}/payment-link/`);
    const paymentLink = new URL((issued.body as PaymentLink).url).searchParams.get("link") ?? "";
    await fixture.testApp.db
      .update(paymentLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(
        and(eq(paymentLinks.clientId, fixture.tenants.a.clientId), eq(paymentLinks.customerId, customerId)),
      );
    for (const token of [paymentLink, "not-a-real-link"]) {
      const info = await fixture.testApp
        .client()
        .post("/api/payments/get-link-info/", { paymentLink: token });
      expect(info.status).toBe(404);
      const stored = await pay({
        ...cardPayment("", "0.00"),
        statementId: undefined,
        recordPayment: true,
        paymentLink: token,
      });
      expect(stored.status).toBe(404);
    }
  });

  it("is issued only for the staff's own client's customers", async () => {
    const { customerId } = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, "20.00");
    const foreign = await fixture.testApp
      .client(fixture.tenants.b.staffToken)
      .post(`/api/customers/${customerId}/payment-link/`);
    expect(foreign.status).toBe(404);
    const anonymous = await fixture.testApp.client().post(`/api/customers/${customerId}/payment-link/`);
    expect(anonymous.status).toBe(401);
  });
});

describe("an Idempotency-Key names one payment", () => {
  it("answers 422 when the same key comes with a different amount, customer or method", async () => {
    const first = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, "50.00");
    const second = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, "50.00");
    const key = `changed-retry-${Date.now()}`;
    const paid = await pay(cardPayment(first.token, "11.00"), key);
    expect(paid.body).toMatchObject({ approved: true, account_balance: "39.00" });
    const same = await pay(cardPayment(first.token, "11.00"), key);
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ approved: true, account_balance: "39.00" });
    for (const changed of [
      cardPayment(first.token, "12.00"),
      cardPayment(second.token, "11.00"),
      cardPayment(first.token, "11.00", { ccNum: MASTERCARD }),
      cardPayment(first.token, "11.00", {
        paymentMethod: "check",
        checkRoutingNum: "021000021",
        checkAccountNum: "123456789",
      }),
    ]) {
      const answer = await pay(changed, key);
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({ detail: KEY_REUSED_MESSAGE });
    }
    expect(sales("11.00")).toHaveLength(1);
    expect(sales("12.00")).toHaveLength(0);
  });
});
