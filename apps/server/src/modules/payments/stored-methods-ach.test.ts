import { ACH_STORE_NEEDS_PAYMENT_MESSAGE, type TransactionRecord } from "@cyclebill/domain";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { currentClock, setClock } from "../../clock.js";
import { customerPaymentMethods, customers, users } from "../../db/tables.js";
import {
  GATEWAY_ACCOUNT_A,
  cardPayment,
  customerWithStatement,
  forgetRateLimits,
  makePayment,
  storedCard,
} from "../../test-support/payment-fixture.js";
import { luhnCard } from "../../test-support/stored-cards.js";
import { RETENTION_MESSAGE, useRecordingPaymentFixture } from "../../test-support/recording-gateway.js";
import { buildRequest, callGateway } from "./bluepay-client.js";
import { paymentGatewayOf } from "./payment-gateway.js";
import { runCardRunChunk } from "./run-card-run.js";
import { startBulkCardRun, type CardRunChunk } from "./start-card-run.js";

// Issue 37 point 8, through a recording stand-in in front of the sandbox (what the app SENT, which
// the sandbox's record does not show): a card on file outlives BluePay's three-year retention by
// charging the newest approval's TRANS_ID, keeping the first STORED_ID; ACH says PAYMENT_TYPE=ACH on
// every call and goes in the class its authorization allows; no $0.00 ACH AUTH is ever sent.

const fixture = useRecordingPaymentFixture();
let keyNo = 0;
const realClock = currentClock();
const YEAR_MS = 365 * 86_400_000;

beforeEach(async () => {
  await forgetRateLimits(fixture.testApp);
});
afterEach(() => setClock(realClock));

const owner = () => fixture.tenants.a.ownerToken;
const pay = (body: unknown, token?: string) =>
  makePayment(fixture.testApp, body, `stored-ach-${++keyNo}`, token);
const staffPay = (customerId: number, body: Record<string, unknown>) =>
  pay({ customer_id: customerId, ...body }, owner());

const ACH = { paymentMethod: "check", checkRoutingNum: "123456780", checkAccountNum: "99887766" };

/** The bp20post calls sent since `from`, as the listed fields. */
function sent(from: number, names: readonly string[]): (string | undefined)[][] {
  return fixture.recorder
    .posts()
    .slice(from)
    .map((fields) => names.map((name) => fields[name]));
}

async function methodOf(customerId: number) {
  const [row] = await fixture.testApp.db
    .select()
    .from(customerPaymentMethods)
    .where(
      and(
        eq(customerPaymentMethods.clientId, fixture.tenants.a.clientId),
        eq(customerPaymentMethods.customerId, customerId),
      ),
    );
  return row;
}

describe("a card on file outlives BluePay's three-year retention", () => {
  it("charges the newest approval's TRANS_ID as MASTER_ID, always with the first STORED_ID", async () => {
    const start = Date.now();
    setClock({ now: () => new Date(start) });
    const { customerId } = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, "90.00");
    const from = fixture.recorder.posts().length;
    expect((await staffPay(customerId, storedCard())).body).toMatchObject({ approved: true });
    const stored = await methodOf(customerId);
    const auth = fixture.sandbox.transactions().at(-1);
    expect(auth).toMatchObject({ transType: "AUTH", transId: stored?.token });
    expect(stored?.storedId).toMatch(/^TESTID/);

    // Two years on, staff charge it: MASTER_ID is the AUTH, and its TRANS_ID becomes the token.
    setClock({ now: () => new Date(start + 2 * YEAR_MS) });
    expect((await staffPay(customerId, { paymentMethod: "useSaved", amount: "3.00" })).body).toMatchObject({
      approved: true,
    });
    const firstSale = fixture.sandbox.transactions().at(-1);
    expect((await methodOf(customerId))?.token).toBe(firstSale?.transId);

    // Four years after the AUTH (two after the sale), BluePay no longer holds the AUTH's card data.
    const fourYears = start + 4 * YEAR_MS;
    setClock({ now: () => new Date(fourYears) });
    fixture.recorder.setRetention({ ms: 3 * YEAR_MS, now: () => new Date(fourYears) });
    expect((await staffPay(customerId, { paymentMethod: "useSaved", amount: "5.00" })).body).toMatchObject({
      approved: true,
    });
    const secondSale = fixture.sandbox.transactions().at(-1);
    expect(secondSale).toMatchObject({ transType: "SALE", amount: "5.00", status: "1" });
    expect(await methodOf(customerId)).toMatchObject({
      token: secondSale?.transId,
      storedId: stored?.storedId,
    });
    expect(sent(from, ["TRANS_TYPE", "AMOUNT", "MASTER_ID", "STORED_INDICATOR", "STORED_ID"])).toEqual([
      ["AUTH", "0.00", undefined, "F", undefined],
      ["SALE", "3.00", auth?.transId, "S", stored?.storedId],
      ["SALE", "5.00", firstSale?.transId, "S", stored?.storedId],
    ]);
    // The first token alone would have died with the AUTH's data.
    const oldWay = await callGateway(
      fixture.recorder.bp20postUrl,
      buildRequest(GATEWAY_ACCOUNT_A, {
        transType: "SALE",
        mode: "TEST",
        amount: "7.00",
        masterId: auth?.transId,
      }),
      { timeoutMs: 5_000 },
    );
    expect(oldWay).toMatchObject({ status: "error", message: RETENTION_MESSAGE });
    fixture.recorder.setRetention(null);
  });

  it("a late answer of the old card never replaces a card stored since", async () => {
    const { customerId } = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, "40.00");
    const card = (serial: number) => storedCard({ ccNum: luhnCard("510510", serial), expYear: "37" });
    expect((await staffPay(customerId, card(7001))).body).toMatchObject({ approved: true });
    // The old card's charge loses its answer; meanwhile the customer gives a new card.
    fixture.sandbox.setFaults({ dropRate: 1 });
    expect((await staffPay(customerId, { paymentMethod: "useSaved", amount: "9.00" })).body).toMatchObject({
      status: "unknown",
    });
    fixture.sandbox.setFaults({ dropRate: 0 });
    expect((await staffPay(customerId, card(7002))).body).toMatchObject({ approved: true });
    const replaced = await methodOf(customerId);
    await fixture.testApp.client(owner()).post("/api/payment-attempts/settle/");
    const late = fixture.sandbox.transactions().find((t) => t.amount === "9.00" && t.masterId !== "");
    expect(late).toMatchObject({ status: "1" });
    const attempts = await fixture.testApp
      .client(owner())
      .get("/api/payment-attempts/", { customer_id: customerId });
    const settled = (attempts.body as { results: { amount: string; status: string }[] }).results;
    expect(settled.find((attempt) => attempt.amount === "9.00")).toMatchObject({ status: "approved" });
    expect(await methodOf(customerId)).toMatchObject({ token: replaced?.token, mask: replaced?.mask });
  });
});

describe("ACH as BluePay expects", () => {
  it("staff's phone entry goes TEL, PPD only with a signed agreement, and stored ones say PAYMENT_TYPE=ACH", async () => {
    const { customerId } = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, "200.00");
    const from = fixture.recorder.posts().length;
    // Keyed by staff from a phone call, stored with it: TEL, and the account is stored as TEL.
    expect(
      (await staffPay(customerId, { ...ACH, amount: "11.00", savePaymentInfo: true })).body,
    ).toMatchObject({
      approved: true,
    });
    const telSale = fixture.sandbox.transactions().at(-1);
    expect(await methodOf(customerId)).toMatchObject({
      kind: "ach",
      token: telSale?.transId,
      achSignedAgreement: false,
      achEntryClass: "TEL",
    });
    // Its stored use: PAYMENT_TYPE=ACH with the MASTER_ID, still TEL (no agreement on file).
    expect((await staffPay(customerId, { paymentMethod: "useSaved", amount: "13.00" })).body).toMatchObject({
      approved: true,
    });
    // A signed agreement on file: PPD, kept with the stored account, and its stored use is PPD too.
    const agreed = { ...ACH, checkAccountNum: "55554444", amount: "15.00", savePaymentInfo: true };
    expect((await staffPay(customerId, { ...agreed, achSignedAgreement: true })).body).toMatchObject({
      approved: true,
    });
    const ppdSale = fixture.sandbox.transactions().at(-1);
    expect(await methodOf(customerId)).toMatchObject({ achSignedAgreement: true, achEntryClass: "PPD" });
    expect((await staffPay(customerId, { paymentMethod: "useSaved", amount: "17.00" })).body).toMatchObject({
      approved: true,
    });
    expect(
      sent(from, ["TRANS_TYPE", "AMOUNT", "PAYMENT_TYPE", "DOC_TYPE", "MASTER_ID", "STORED_INDICATOR"]),
    ).toEqual([
      ["SALE", "11.00", "ACH", "TEL", undefined, undefined],
      ["SALE", "13.00", "ACH", "TEL", telSale?.transId, undefined],
      ["SALE", "15.00", "ACH", "PPD", undefined, undefined],
      ["SALE", "17.00", "ACH", "PPD", ppdSale?.transId, undefined],
    ]);
  });

  it("a card run debits stored bank accounts with PAYMENT_TYPE=ACH, in the class each was stored under", async () => {
    const { clientId } = fixture.tenants.a;
    const tel = await customerWithStatement(fixture.testApp, clientId, "50.00");
    const ppd = await customerWithStatement(fixture.testApp, clientId, "60.00");
    // Odd dollars approve in the sandbox's TEST mode.
    const save = { ...ACH, amount: "11.00", savePaymentInfo: true };
    expect((await staffPay(tel.customerId, { ...save, checkAccountNum: "11223344" })).body).toMatchObject({
      approved: true,
    });
    expect(
      (await staffPay(ppd.customerId, { ...save, checkAccountNum: "44332211", achSignedAgreement: true }))
        .body,
    ).toMatchObject({ approved: true });
    const tokens = [(await methodOf(tel.customerId))?.token, (await methodOf(ppd.customerId))?.token];
    const [user] = await fixture.testApp.db.select().from(users).where(eq(users.clientId, clientId)).limit(1);
    if (!user) throw new Error("no user");
    const chunks: CardRunChunk[] = [];
    await startBulkCardRun(
      fixture.testApp.db,
      { clientId, user: { ...user, username: user.email, isAdmin: false, clientId } },
      [tel.customerId, ppd.customerId],
      (_tx, queued) => {
        chunks.push(...queued.map((chunk) => chunk.payload));
        return Promise.resolve();
      },
    );
    const from = fixture.recorder.posts().length;
    for (const chunk of chunks)
      await runCardRunChunk(fixture.testApp.db, paymentGatewayOf(fixture.testApp.config), chunk);
    const sales = sent(from, [
      "TRANS_TYPE",
      "AMOUNT",
      "PAYMENT_TYPE",
      "DOC_TYPE",
      "MASTER_ID",
      "STORED_INDICATOR",
    ]);
    expect(sales.sort((x, y) => String(x[1]).localeCompare(String(y[1])))).toEqual([
      ["SALE", "39.00", "ACH", "TEL", tokens[0], undefined],
      ["SALE", "49.00", "ACH", "PPD", tokens[1], undefined],
    ]);
  });

  it("the public page goes WEB, a company's account CCD, and refunds carry PAYMENT_TYPE and DOC_TYPE", async () => {
    const { customerId, token } = await customerWithStatement(
      fixture.testApp,
      fixture.tenants.a.clientId,
      "80.00",
    );
    const from = fixture.recorder.posts().length;
    expect((await pay({ ...ACH, statementId: token, amount: "9.00" })).body).toMatchObject({
      approved: true,
    });
    await fixture.testApp.db
      .update(customers)
      .set({ companyName: "Payer Holdings LLC" })
      .where(eq(customers.id, customerId));
    expect((await staffPay(customerId, { ...ACH, amount: "21.00" })).body).toMatchObject({ approved: true });
    const staff = fixture.testApp.client(owner());
    const entries = await staff.get("/api/transactions/", { customer__id: customerId, limit: 100 });
    const payments = (entries.body as { results: TransactionRecord[] }).results.filter(
      (t) => t.gateway_trans_id,
    );
    for (const amount of ["9.00", "21.00"]) {
      const payment = payments.find((t) => t.amount === amount);
      expect((await staff.post(`/api/transactions/${payment?.id}/reversal/`)).status).toBe(201);
    }
    expect(sent(from, ["TRANS_TYPE", "AMOUNT", "PAYMENT_TYPE", "DOC_TYPE"])).toEqual([
      ["SALE", "9.00", "ACH", "WEB"],
      ["SALE", "21.00", "ACH", "CCD"],
      // A refund is a credit: a consumer's goes PPD (WEB and TEL carry debits only), a business's CCD.
      ["REFUND", "9.00", "ACH", "PPD"],
      ["REFUND", "21.00", "ACH", "CCD"],
    ]);
  });

  it("never sends a $0.00 ACH AUTH: a bank account is stored with its first payment", async () => {
    const { customerId } = await customerWithStatement(fixture.testApp, fixture.tenants.a.clientId, "30.00");
    const from = fixture.recorder.posts().length;
    const refused = await staffPay(customerId, { ...ACH, amount: "0.00", recordPayment: true });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ paymentMethod: [ACH_STORE_NEEDS_PAYMENT_MESSAGE] });
    // From a staff-issued link too: the customer stores a card there, or pays to store an account.
    const link = await fixture.testApp.client(owner()).post(`/api/customers/${customerId}/payment-link/`);
    const linkToken = new URL((link.body as { url: string }).url).searchParams.get("link") ?? "";
    const fromLink = await pay({ ...ACH, amount: "0.00", recordPayment: true, paymentLink: linkToken });
    expect(fromLink.status).toBe(400);
    expect(await methodOf(customerId)).toBeUndefined();
    expect(fixture.recorder.posts().slice(from)).toEqual([]);
    // Cards are still stored by a $0.00 AUTH.
    expect(
      (
        await pay(
          cardPayment("", "0.00", { statementId: undefined, recordPayment: true, paymentLink: linkToken }),
        )
      ).body,
    ).toMatchObject({
      approved: true,
    });
    expect(
      fixture.recorder
        .posts()
        .every((fields) => !(fields.TRANS_TYPE === "AUTH" && fields.PAYMENT_TYPE === "ACH")),
    ).toBe(true);
  });
});
