import type { Sandbox, SandboxTransaction } from "@cyclebill/gateway-sandbox";
import {
  LOOKUP_WINDOW_MS,
  NEEDS_CHECKING_MESSAGE,
  type PaymentAttempt,
  type TransactionRecord,
} from "@cyclebill/domain";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { currentClock, setClock } from "../../clock.js";
import { codes, customers, paymentAttempts } from "../../db/tables.js";
import { postEntries } from "../ledger/post-entries.js";
import {
  MASTERCARD,
  VISA,
  cardPayment,
  customerWithStatement,
  forgetRateLimits,
  makePayment,
  startPaymentFixture,
  type PaymentFixture,
} from "../../test-support/payment-fixture.js";
import type { TenantFixture, TestApp } from "../../test-support/test-app.js";
import { paymentGatewayOf } from "./payment-gateway.js";
import { settleDueAttempts } from "./settle-attempts.js";

// The payment API over HTTP against a sandbox whose accounts take one seal hash each, as BluePay
// accounts do: seals, lost answers settled only by a definite query answer, and card-on-file, ACH
// class and payer fields on every kind of charge.

const HMAC_ACCOUNT = {
  accountId: "100000002901",
  secretKey: "GATEWAYPROTOCOLHMACSECRETKEY0001",
  hashType: "HMAC_SHA512",
} as const;
const MD5_ACCOUNT = {
  accountId: "100000002902",
  secretKey: "GATEWAYPROTOCOLMD5SECRETKEY00002",
  hashType: "MD5",
} as const;

let fixture: PaymentFixture | undefined;
let sandbox: Sandbox;
let testApp: TestApp;
let tenants: TenantFixture;
let keyNo = 0;
const realClock = currentClock();

beforeAll(async () => {
  // The sandbox keeps the app's clock, so a test that moves it moves both, as faketime would.
  fixture = await startPaymentFixture({
    accounts: [HMAC_ACCOUNT, MD5_ACCOUNT],
    sandboxNow: () => currentClock().now(),
    gatewayTimeoutMs: 2_000,
  });
  ({ sandbox, testApp, tenants } = fixture);
});

afterAll(async () => {
  await fixture?.close();
});

beforeEach(async () => {
  await forgetRateLimits(testApp);
  sandbox.setFaults({ dropRate: 0, hangRate: 0, stqFault: "none" });
});

afterEach(() => setClock(realClock));

const staffA = () => testApp.client(tenants.a.staffToken);

function pay(body: unknown, key = `gp-${++keyNo}`, token?: string) {
  return makePayment(testApp, body, key, token);
}

/** The gateway's transactions of one attempt, by the ORDER_ID it sent (this installation's id and its own). */
function ordered(attemptId: number | undefined): SandboxTransaction[] {
  return sandbox.transactions().filter((t) => t.orderId === `${testApp.config.installationId}-${attemptId}`);
}

async function attemptsOf(customerId: number, token = tenants.a.staffToken): Promise<PaymentAttempt[]> {
  const response = await testApp.client(token).get("/api/payment-attempts/", { customer_id: customerId });
  expect(response.status).toBe(200);
  return (response.body as { results: PaymentAttempt[] }).results;
}

async function paymentsOf(customerId: number): Promise<TransactionRecord[]> {
  const response = await staffA().get("/api/transactions/", { customer__id: customerId, limit: 100 });
  return (response.body as { results: TransactionRecord[] }).results.filter((t) => t.gateway_trans_id);
}

/** The client editor's body for a PUT, as the web sends it. */
async function editorBody(id: number): Promise<Record<string, unknown>> {
  const current = (await testApp.client(tenants.adminToken).get(`/api/clients/${id}/`)).body as Record<
    string,
    unknown
  >;
  const { id: _id, has_blue_pay_key: _key, created_at: _created, updated_at: _updated, ...body } = current;
  return body;
}

describe("seals as the account expects", () => {
  it("charges, refunds and queries an HMAC_SHA512 account (the default)", async () => {
    const { customerId, token } = await customerWithStatement(testApp, tenants.a.clientId, "60.00");
    const paid = await pay(cardPayment(token, "21.00"));
    expect(paid.body).toMatchObject({ approved: true, account_balance: "39.00" });
    const [payment] = await paymentsOf(customerId);
    const reversed = await staffA().post(`/api/transactions/${payment?.id}/reversal/`);
    expect(reversed.status).toBe(201);
    // A lost answer, found by the query (sealed the same way) and recorded once.
    sandbox.setFaults({ dropRate: 1 });
    const lost = await pay(cardPayment(token, "23.00"));
    expect(lost.body).toMatchObject({ status: "unknown" });
    sandbox.setFaults({ dropRate: 0 });
    expect((await staffA().post("/api/payment-attempts/settle/")).body).toEqual({ settled: 1, pending: 0 });
    const [latest] = await attemptsOf(customerId);
    expect(latest).toMatchObject({ kind: "sale", status: "approved", amount: "23.00" });
    expect(ordered(latest?.id)).toHaveLength(1);
    expect(
      sandbox
        .transactions()
        .filter((t) => t.accountId === HMAC_ACCOUNT.accountId)
        .map((t) => [t.transType, t.amount, t.hashType]),
    ).toEqual([
      ["SALE", "21.00", "HMAC_SHA512"],
      ["REFUND", "21.00", "HMAC_SHA512"],
      ["SALE", "23.00", "HMAC_SHA512"],
    ]);
  });

  it("the request's TPS_HASH_TYPE decides over an MD5 account's setting; admins (not owners) can seal MD5", async () => {
    const { token } = await customerWithStatement(testApp, tenants.b.clientId, "40.00");
    // BluePay uses the hash type the request names, the account's setting only when none is sent.
    const accepted = await pay(cardPayment(token, "11.00"));
    expect(accepted.body).toMatchObject({ approved: true, account_balance: "29.00" });
    const owner = testApp.client(tenants.b.ownerToken);
    const before = await editorBody(tenants.b.clientId);
    expect(before.gateway_hash_type).toBeNull();
    const ownerSave = await owner.put(`/api/clients/${tenants.b.clientId}/`, {
      ...before,
      gateway_hash_type: "MD5",
    });
    // A provider-only field (issue 30): the owner's change is refused, naming it, and nothing changes.
    expect(ownerSave.status).toBe(403);
    expect(JSON.stringify(ownerSave.body)).toContain("gateway_hash_type");
    expect((await editorBody(tenants.b.clientId)).gateway_hash_type).toBeNull();
    const bad = await testApp
      .client(tenants.adminToken)
      .put(`/api/clients/${tenants.b.clientId}/`, { ...before, gateway_hash_type: "SHA1" });
    expect(bad.status).toBe(400);
    expect(bad.body).toHaveProperty("gateway_hash_type");
    const adminSave = await testApp
      .client(tenants.adminToken)
      .put(`/api/clients/${tenants.b.clientId}/`, { ...before, gateway_hash_type: "MD5" });
    expect(adminSave.body).toMatchObject({ gateway_hash_type: "MD5" });
    const paid = await pay(cardPayment(token, "13.00"));
    expect(paid.body).toMatchObject({ approved: true, account_balance: "16.00" });
    expect(
      sandbox
        .transactions()
        .filter((t) => t.accountId === MD5_ACCOUNT.accountId)
        .map((t) => [t.amount, t.status, t.hashType]),
    ).toEqual([
      ["11.00", "1", "HMAC_SHA512"],
      ["13.00", "1", "MD5"],
    ]);
  });
});

describe("only a definite answer settles a lost charge", () => {
  const shapes = ["html", "bad-gateway", "unknown-shape", "server-error", "hang"] as const;

  it.each(shapes.map((shape, n) => [shape, `${31 + 2 * n}.00`] as const))(
    "a lost sale stays unknown on a query answered with %s, is never charged again, and needs checking after the lookup window",
    async (shape, amount) => {
      const { customerId, token } = await customerWithStatement(testApp, tenants.a.clientId, "99.00");
      const key = `shape-${shape}-${++keyNo}`;
      sandbox.setFaults({ dropRate: 1 });
      expect((await pay(cardPayment(token, amount), key)).body).toMatchObject({ status: "unknown" });
      sandbox.setFaults({ dropRate: 0, stqFault: shape });
      // The retry with the same key asks again, learns nothing definite, and does not charge.
      const retried = await pay(cardPayment(token, amount), key);
      expect(retried.status).toBe(409);
      expect((await staffA().post("/api/payment-attempts/settle/")).body).toMatchObject({ pending: 1 });
      const [attempt] = await attemptsOf(customerId);
      expect(attempt).toMatchObject({ status: "unknown", needs_checking: false });
      expect(ordered(attempt?.id)).toHaveLength(1);
      expect(await paymentsOf(customerId)).toEqual([]);
      // Past the lookup window, staff are told to look at the gateway.
      const later = Date.now() + LOOKUP_WINDOW_MS + 60_000;
      setClock({ now: () => new Date(later) });
      const [flagged] = await attemptsOf(customerId);
      expect(flagged).toMatchObject({
        status: "unknown",
        needs_checking: true,
        message: NEEDS_CHECKING_MESSAGE,
      });
      // Once the query answers properly, the one charge is recorded; still one at the gateway.
      sandbox.setFaults({ stqFault: "none" });
      await staffA().post("/api/payment-attempts/settle/");
      const [settled] = await attemptsOf(customerId);
      expect(settled).toMatchObject({ status: "approved", needs_checking: false });
      expect(ordered(attempt?.id)).toHaveLength(1);
      expect((await paymentsOf(customerId)).map((t) => t.amount)).toEqual([amount]);
    },
  );

  it("finds a lost refund a year ahead: the attempt's time and the query's window share the app's clock", async () => {
    const yearAhead = Date.now() + 400 * 86_400_000;
    setClock({ now: () => new Date(yearAhead) });
    const { customerId, token } = await customerWithStatement(testApp, tenants.a.clientId, "70.00");
    expect((await pay(cardPayment(token, "49.17"))).body).toMatchObject({ approved: true });
    const [payment] = await paymentsOf(customerId);
    sandbox.setFaults({ dropRate: 1 });
    expect((await staffA().post(`/api/transactions/${payment?.id}/reversal/`)).status).toBe(409);
    sandbox.setFaults({ dropRate: 0 });
    // A minute on, past the call's time-out: "not found" would now be final, so the window matters.
    const minuteOn = yearAhead + 60_000;
    setClock({ now: () => new Date(minuteOn) });
    await staffA().post("/api/payment-attempts/settle/");
    const [refund] = await attemptsOf(customerId);
    expect(refund).toMatchObject({ kind: "refund", status: "approved" });
    expect(ordered(refund?.id)).toMatchObject([{ transType: "REFUND", status: "1" }]);
  });
});

describe("asking again with backoff", () => {
  it("the settle job asks about a pending attempt only when its next check is due, later each time", async () => {
    const { customerId, token } = await customerWithStatement(testApp, tenants.a.clientId, "80.00");
    sandbox.setFaults({ dropRate: 1 });
    await pay(cardPayment(token, "41.00"));
    sandbox.setFaults({ dropRate: 0, stqFault: "unknown-shape" });
    const gateway = paymentGatewayOf(testApp.config);
    const start = Date.now();
    const at = (ms: number) => () => new Date(start + ms);
    const [attempt] = await attemptsOf(customerId);
    const row = async () => {
      const [found] = await testApp.db
        .select({ checks: paymentAttempts.gatewayChecks, next: paymentAttempts.nextCheckAt })
        .from(paymentAttempts)
        .where(eq(paymentAttempts.id, attempt?.id ?? 0));
      return { checks: found?.checks, inMs: (found?.next?.getTime() ?? 0) - start };
    };
    const before = (await row()).checks ?? 0;
    await settleDueAttempts(testApp.db, gateway, at(120_000));
    const first = await row();
    expect(first.checks).toBe(before + 1);
    // Not due yet: nothing asked, nothing changed.
    await settleDueAttempts(testApp.db, gateway, at(121_000));
    expect(await row()).toEqual(first);
    await settleDueAttempts(testApp.db, gateway, at(first.inMs + 1));
    const second = await row();
    expect(second.checks).toBe(before + 2);
    expect(second.inMs - (first.inMs + 1)).toBeGreaterThan(first.inMs - 120_000);
    expect(ordered(attempt?.id)).toHaveLength(1);
    sandbox.setFaults({ stqFault: "none" });
    await settleDueAttempts(testApp.db, gateway, at(second.inMs + 1));
    expect((await attemptsOf(customerId))[0]).toMatchObject({ status: "approved" });
  });
});

describe("card-on-file, ACH class and payer fields on every kind of charge", () => {
  it("marks stored-card charges, names the ACH class and passes the public payer's address", async () => {
    const { customerId, token } = await customerWithStatement(testApp, tenants.a.clientId, "90.00");
    const owner = tenants.a.ownerToken;
    // Staff store a card: the first card-on-file use, customer-initiated.
    const stored = await pay(
      {
        ...cardPayment(token, "0.00", { ccNum: MASTERCARD }),
        statementId: undefined,
        customer_id: customerId,
        recordPayment: true,
      },
      undefined,
      owner,
    );
    expect(stored.body).toMatchObject({ approved: true });
    const auth = sandbox.transactions().at(-1);
    expect(auth).toMatchObject({ transType: "AUTH", storedIndicator: "F", storedType: "C", customerIp: "" });
    expect(auth?.storedId).toMatch(/^TESTID/);
    // Staff charge it, then the payer on the public page: later uses carry the first's STORED_ID.
    await pay({ customer_id: customerId, paymentMethod: "useSaved", amount: "3.00" }, undefined, owner);
    // The public page's saved method pays exactly the statement's amount due (issue 29.5): 90.00 - 3.00.
    await pay({ statementId: token, paymentMethod: "useSaved", amount: "87.00" });
    // A new charge, so the public page has a balance to pay again.
    const [code] = await testApp.db
      .select({ id: codes.id })
      .from(codes)
      .where(eq(codes.clientId, tenants.a.clientId));
    await testApp.db.transaction((tx) =>
      postEntries(tx, { clientId: tenants.a.clientId }, [
        {
          customerId,
          codeId: code?.id ?? 0,
          codeType: "charge",
          description: "Service",
          rate: "50.00",
          quantity: "1",
          serviceDate: "2026-02-02",
        },
      ]),
    );
    // A card typed in on the public page: not on file, but the payer's address goes along.
    await pay(cardPayment(token, "7.00", { ccNum: VISA }));
    // ACH from the public page (WEB), keyed by staff from a phone call (TEL), and for a company (CCD).
    const ach = { paymentMethod: "check", checkRoutingNum: "123456780", checkAccountNum: "99887766" };
    await pay({ ...ach, statementId: token, amount: "9.00" });
    await pay({ ...ach, customer_id: customerId, amount: "11.00" }, undefined, owner);
    await testApp.db
      .update(customers)
      .set({ companyName: "Payer Holdings LLC" })
      .where(eq(customers.id, customerId));
    await pay({ ...ach, customer_id: customerId, amount: "13.00" }, undefined, owner);
    const sales = sandbox
      .transactions()
      .filter((t) => t.transType === "SALE" && t.accountId === HMAC_ACCOUNT.accountId)
      .slice(-6)
      .map((t) => [
        t.amount,
        t.storedIndicator,
        t.storedType,
        t.storedId,
        t.docType,
        t.customerIp !== "",
        t.status,
      ]);
    expect(sales).toEqual([
      ["3.00", "S", "C", auth?.storedId, "", false, "1"],
      ["87.00", "S", "C", auth?.storedId, "", true, "1"],
      ["7.00", "", "", "", "", true, "1"],
      ["9.00", "", "", "", "WEB", true, "1"],
      ["11.00", "", "", "", "TEL", false, "1"],
      ["13.00", "", "", "", "CCD", false, "1"],
    ]);
    expect(sandbox.transactions().every((t) => !t.duplicateOverride)).toBe(true);
  });
});
