import {
  CARD_NUMBER_MESSAGE,
  NO_STORED_METHOD_MESSAGE,
  PAYMENT_PENDING_MESSAGE,
  STATEMENT_NOT_FOUND_MESSAGE,
  type PaymentAttempt,
  type PaymentInfo,
  type PaymentResult,
  type TransactionRecord,
} from "@cyclebill/domain";
import { describe, expect, it } from "vitest";
import { buildRequest, callGateway } from "./bluepay-client.js";
import {
  GATEWAY_ACCOUNT_A,
  MASTERCARD,
  cardPayment,
  customerWithStatement,
  forgetRateLimits,
  makePayment,
  storedCard,
  usePaymentFixture,
} from "../../test-support/payment-fixture.js";
import { CHARGE_LIMIT, LOOKUP_LIMIT } from "./payment-throttle.js";

// The payment API over HTTP: a real server, a real database, the gateway sandbox over HTTP.

const fixture = usePaymentFixture({ freshLimits: true });
let keyNo = 0;

const anonymous = () => fixture.testApp.client();
const staffA = () => fixture.testApp.client(fixture.tenants.a.staffToken);

function pay(body: unknown, key = `key-${++keyNo}`, token?: string) {
  return makePayment(fixture.testApp, body, key, token);
}

async function entriesOf(customerId: number, client = staffA()): Promise<TransactionRecord[]> {
  const response = await client.get("/api/transactions/", { customer__id: customerId, limit: 100 });
  expect(response.status).toBe(200);
  return (response.body as { results: TransactionRecord[] }).results;
}

async function balanceOf(customerId: number): Promise<string> {
  const response = await staffA().get(`/api/customers/${customerId}/`);
  return (response.body as { total_balance: string }).total_balance;
}

const paymentsOf = (entries: TransactionRecord[]) => entries.filter((entry) => entry.code_type === "payment");

describe("the public pay-a-statement page", () => {
  it("finds the statement by its pay token and starts the amount at what is due", async () => {
    const { token } = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, "50.00");
    const response = await anonymous().post("/api/payments/get-payment-info/", { statementId: token });
    expect(response.status).toBe(200);
    const info = response.body as PaymentInfo;
    expect(info).toMatchObject({
      hasStoredPaymentInfo: false,
      amount: "50.00",
      accountbalance: "50.00",
      first_name: "Pat",
      address1: "9 Elm St",
      stored_method: null,
      statement: { statement_date: "2026-01-31", due_date: "2026-03-02", amount_due: "50.00" },
    });
  });

  it("answers an unknown or malformed pay code with 404 and the page's message", async () => {
    const { token } = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, "5.00");
    const wrongCode = token.replace(/.$/, (last) => (last === "0" ? "1" : "0"));
    const otherClient = token.replace(/^\d+/, String(fixture.tenants.b.clientId));
    for (const statementId of [wrongCode, otherClient, "12", "1-notacode"]) {
      const response = await anonymous().post("/api/payments/get-payment-info/", { statementId });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: STATEMENT_NOT_FOUND_MESSAGE });
    }
    const payment = await pay(cardPayment(wrongCode, "5.00"));
    expect(payment.status).toBe(404);
    expect(payment.body).toEqual({ detail: STATEMENT_NOT_FOUND_MESSAGE });
  });

  it("an approved odd amount posts one payment entry carrying the gateway's TRANS_ID; the balance falls", async () => {
    const { customerId, token } = await customerWithStatement(
      fixture.testApp,
      fixture.tenants.a.clientId,
      "50.00",
    );
    const response = await pay(cardPayment(token, "21.00"));
    expect(response.status).toBe(200);
    const result = response.body as PaymentResult;
    expect(result).toMatchObject({
      approved: true,
      status: "approved",
      name1: "Pat",
      name2: "Payer",
      amount_response: "21.00",
      account_balance: "29.00",
    });
    expect(result.message_response.toLowerCase()).toContain("approved");
    const payments = paymentsOf(await entriesOf(customerId));
    expect(payments).toHaveLength(1);
    const sale = fixture.sandbox.transactions().find((t) => t.transType === "SALE" && t.amount === "21.00");
    expect(payments[0]).toMatchObject({
      amount: "21.00",
      ledger_amount: "-21.00",
      gateway_trans_id: sale?.transId,
    });
    expect(sale?.mask).toBe("xxxxxxxxxxxx1111");
    expect(await balanceOf(customerId)).toBe("29.00");
  });

  it("a declined even amount posts nothing, is recorded, and keeps the gateway's message on the customer", async () => {
    const { customerId, token } = await customerWithStatement(
      fixture.testApp,
      fixture.tenants.a.clientId,
      "50.00",
    );
    const response = await pay(cardPayment(token, "20.00", { ccNum: MASTERCARD }));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      approved: false,
      status: "declined",
      message_response: "Declined",
      account_balance: "50.00",
    });
    expect(paymentsOf(await entriesOf(customerId))).toEqual([]);
    const attempts = await staffA().get("/api/payment-attempts/", { customer_id: customerId });
    expect(attempts.body).toMatchObject({
      count: 1,
      results: [{ kind: "sale", source: "page", status: "declined", amount: "20.00", transaction_id: null }],
    });
    const customer = await staffA().get(`/api/customers/${customerId}/`);
    expect(customer.body).toMatchObject({ bluepay_transaction_message: "Declined", total_balance: "50.00" });
  });

  it("a retry with the same Idempotency-Key returns the first result and charges once", async () => {
    const { customerId, token } = await customerWithStatement(
      fixture.testApp,
      fixture.tenants.a.clientId,
      "40.00",
    );
    const [first, second] = await Promise.all([
      pay(cardPayment(token, "13.00"), "double-click-1"),
      pay(cardPayment(token, "13.00"), "double-click-1"),
    ]);
    const third = await pay(cardPayment(token, "13.00"), "double-click-1");
    const answers = [first, second, third].filter((response) => response.status === 200);
    // Two at once: one sends, the other finds it (answered, or 409 while it is still with the gateway).
    for (const response of [first, second]) expect([200, 409]).toContain(response.status);
    for (const response of answers)
      expect(response.body).toMatchObject({ approved: true, account_balance: "27.00" });
    expect(third.status).toBe(200);
    expect(paymentsOf(await entriesOf(customerId))).toHaveLength(1);
    const sales = fixture.sandbox
      .transactions()
      .filter((t) => t.transType === "SALE" && t.amount === "13.00");
    expect(sales).toHaveLength(1);
  });

  it("a lost answer stays unknown (409 on retry) until the gateway is asked for its ORDER_ID; then it posts once", async () => {
    const { customerId, token } = await customerWithStatement(
      fixture.testApp,
      fixture.tenants.a.clientId,
      "40.00",
    );
    fixture.sandbox.setFaults({ dropRate: 1 });
    try {
      const lost = await pay(cardPayment(token, "19.00"), "lost-answer-1");
      expect(lost.status).toBe(200);
      expect(lost.body).toMatchObject({ approved: false, status: "unknown", account_balance: "40.00" });
      const retry = await pay(cardPayment(token, "19.00"), "lost-answer-1");
      expect(retry.status).toBe(409);
      expect(retry.body).toEqual({ detail: PAYMENT_PENDING_MESSAGE });
    } finally {
      fixture.sandbox.setFaults({ dropRate: 0 });
    }
    const settled = await staffA().post("/api/payment-attempts/settle/");
    expect(settled.body).toEqual({ settled: 1, pending: 0 });
    const again = await pay(cardPayment(token, "19.00"), "lost-answer-1");
    expect(again.body).toMatchObject({ approved: true, status: "approved", account_balance: "21.00" });
    expect(paymentsOf(await entriesOf(customerId))).toHaveLength(1);
    const sales = fixture.sandbox
      .transactions()
      .filter((t) => t.transType === "SALE" && t.amount === "19.00");
    expect(sales).toHaveLength(1);
  });

  it("refuses bad card data with the payload's messages before anything is sent", async () => {
    const { token } = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, "10.00");
    const before = fixture.sandbox.transactions().length;
    const response = await pay(cardPayment(token, "3.00", { ccNum: "4111111111111112" }));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ ccNum: [CARD_NUMBER_MESSAGE] });
    const expired = await pay(cardPayment(token, "3.00", { expMonth: "01", expYear: "20" }));
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({ expYear: ["This card has expired."] });
    expect(fixture.sandbox.transactions()).toHaveLength(before);
  });

  it("holds an address to a few lookups and payments (429 with a DRF detail)", async () => {
    const { token } = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, "10.00");
    const bad = token.replace(/.$/, (last) => (last === "0" ? "1" : "0"));
    for (let index = 0; index < LOOKUP_LIMIT; index++)
      expect((await anonymous().post("/api/payments/get-payment-info/", { statementId: bad })).status).toBe(
        404,
      );
    const limited = await anonymous().post("/api/payments/get-payment-info/", { statementId: token });
    expect(limited.status).toBe(429);
    expect((limited.body as { detail: string }).detail).toMatch(
      /^Too many payment attempts from this address/,
    );

    await forgetRateLimits(fixture.testApp);
    for (let index = 0; index < CHARGE_LIMIT; index++)
      expect((await pay(cardPayment(bad, "3.00"))).status).toBe(404);
    const charge = await pay(cardPayment(token, "3.00"));
    expect(charge.status).toBe(429);
  });
});

describe("staff payments and stored methods", () => {
  it("stores a card with a $0.00 AUTH, shows it, charges it, and forgets it", async () => {
    const { customerId } = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, "60.00");
    const staffPay = (body: Record<string, unknown>) =>
      pay({ customer_id: customerId, ...body }, `staff-${++keyNo}`, fixture.tenants.a.staffToken);

    const autopayFirst = await staffA().put(`/api/customers/${customerId}/`, {
      ...((await staffA().get(`/api/customers/${customerId}/`)).body as object),
      autopay_flag: true,
    });
    expect(autopayFirst.status).toBe(400);
    expect(autopayFirst.body).toEqual({ autopay_flag: [NO_STORED_METHOD_MESSAGE] });

    const stored = await staffPay(storedCard({ autoPay: true }));
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ approved: true, amount_response: "0.00", account_balance: "60.00" });
    const auth = fixture.sandbox.transactions().at(-1);
    expect(auth).toMatchObject({ transType: "AUTH", amount: "0.00" });

    const info = await staffA().get(`/api/customers/${customerId}/get-payment-info/`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      hasStoredPaymentInfo: true,
      statement: null,
      autopay_flag: true,
      stored_method: { kind: "card", mask: "xxxxxxxxxxxx4444", card_type: "MC", expiry: "0838" },
    });
    const record = await staffA().get(`/api/customers/${customerId}/`);
    expect(record.body).toMatchObject({ bluepay_transaction_id: auth?.transId, autopay_flag: true });
    expect(paymentsOf(await entriesOf(customerId))).toEqual([]);

    const charged = await staffPay({ paymentMethod: "useSaved", amount: "25.00" });
    expect(charged.body).toMatchObject({ approved: true, account_balance: "35.00" });
    expect(fixture.sandbox.transactions().at(-1)).toMatchObject({
      transType: "SALE",
      masterId: auth?.transId,
    });

    const removed = await staffA().delete(`/api/customers/${customerId}/delete-payment-info/`);
    expect(removed.status).toBe(204);
    expect((await staffA().get(`/api/customers/${customerId}/`)).body).toMatchObject({
      bluepay_transaction_id: "",
      autopay_flag: false,
    });
    const noMethod = await staffPay({ paymentMethod: "useSaved", amount: "5.00" });
    expect(noMethod.status).toBe(400);
    expect(noMethod.body).toEqual({ non_field_errors: [NO_STORED_METHOD_MESSAGE] });

    const attempts = await staffA().get("/api/payment-attempts/", { customer_id: customerId });
    const list = (attempts.body as { results: PaymentAttempt[] }).results;
    expect(list.map((attempt) => [attempt.kind, attempt.source, attempt.status])).toEqual([
      ["sale", "staff", "approved"],
      ["auth", "staff", "approved"],
    ]);
  });

  it("takes an ACH payment now", async () => {
    const { customerId } = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, "30.00");
    const response = await pay(
      {
        customer_id: customerId,
        paymentMethod: "check",
        checkRoutingNum: "123456780",
        checkAccountNum: "99887766",
        amount: "11.00",
      },
      `ach-${++keyNo}`,
      fixture.tenants.a.ownerToken,
    );
    expect(response.body).toMatchObject({ approved: true, account_balance: "19.00" });
    const [entry] = paymentsOf(await entriesOf(customerId));
    expect(entry?.description).toBe("ACH payment ...7766");
  });

  it("keeps tenants apart: another client's customer is 404 everywhere", async () => {
    const { customerId } = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, "30.00");
    const staffB = fixture.testApp.client(fixture.tenants.b.staffToken);
    const body = cardPayment("", "5.00", { statementId: undefined, customer_id: customerId });
    expect((await pay(body, `b-${++keyNo}`, fixture.tenants.b.staffToken)).status).toBe(404);
    const named = { ...body, client_id: fixture.tenants.a.clientId };
    expect((await pay(named, `b-${++keyNo}`, fixture.tenants.b.staffToken)).status).toBe(404);
    expect((await staffB.get(`/api/customers/${customerId}/get-payment-info/`)).status).toBe(404);
    expect((await staffB.delete(`/api/customers/${customerId}/delete-payment-info/`)).status).toBe(404);
    const attempts = await staffB.get("/api/payment-attempts/");
    expect(attempts.body).toMatchObject({ count: 0 });
    expect((await pay(body, `anon-${++keyNo}`)).status).toBe(401);
  });
});

describe("taking a card payment back", () => {
  it("reversing a card payment refunds it at the gateway first and posts the reversal when approved", async () => {
    const { customerId, token } = await customerWithStatement(
      fixture.testApp,
      fixture.tenants.a.clientId,
      "50.00",
    );
    await pay(cardPayment(token, "31.00"));
    const [payment] = paymentsOf(await entriesOf(customerId));
    expect(payment?.reversible).toBe(true);
    const reversed = await staffA().post(`/api/transactions/${payment?.id}/reversal/`);
    expect(reversed.status).toBe(201);
    const refund = fixture.sandbox.transactions().at(-1);
    expect(refund).toMatchObject({
      transType: "REFUND",
      amount: "31.00",
      masterId: payment?.gateway_trans_id,
    });
    expect(reversed.body).toMatchObject({
      reverses_transaction: payment?.id,
      amount: "31.00",
      ledger_amount: "31.00",
      gateway_trans_id: refund?.transId,
    });
    expect(await balanceOf(customerId)).toBe("50.00");
    const removal = await staffA().delete(
      `/api/transactions/${(reversed.body as { id: number }).id}/delete_reversal/`,
    );
    expect(removal.status).toBe(400);
  });

  it("a refund the gateway refuses posts nothing and says why", async () => {
    const { customerId, token } = await customerWithStatement(
      fixture.testApp,
      fixture.tenants.a.clientId,
      "50.00",
    );
    await pay(cardPayment(token, "33.00"));
    const [payment] = paymentsOf(await entriesOf(customerId));
    // Voided at the gateway behind our back: the gateway refuses the refund.
    const voided = await callGateway(
      fixture.sandbox.bp20postUrl,
      buildRequest(GATEWAY_ACCOUNT_A, {
        transType: "VOID",
        mode: "TEST",
        masterId: payment?.gateway_trans_id ?? undefined,
      }),
      { timeoutMs: 5_000 },
    );
    expect(voided).toMatchObject({ status: "approved" });
    const reversed = await staffA().post(`/api/transactions/${payment?.id}/reversal/`);
    expect(reversed.status).toBe(400);
    expect(reversed.body).toEqual({ non_field_errors: ["MASTER_ID was voided"] });
    expect(await balanceOf(customerId)).toBe("17.00");
    expect(await entriesOf(customerId)).toHaveLength(2);
  });
});
