import { and, eq } from "drizzle-orm";
import { cardRunStartedSchema } from "@cyclebill/domain";
import { describe, expect, it } from "vitest";
import { clients, customerPaymentMethods, paymentAttempts } from "../../db/tables.js";
import {
  achPayment,
  cardSale,
  customerOf,
  entriesOf,
  eventsOf,
  lastSale,
  owingCustomer,
  payWithStored,
  report,
  useGatewayEventsWorld,
} from "../../test-support/gateway-events-world.js";
import { waitForCardRun } from "../../test-support/card-run-world.js";
import { paymentGatewayOf } from "../payments/payment-gateway.js";
import { applyGatewayEvent } from "./apply-gateway-event.js";
import { sendDueRepresentments } from "./represent-return.js";

// Issue 37: an ACH payment is pending settlement until the gateway settles it; a return or a
// chargeback reverses it through the ledger writer, naming the code; NACHA's rules for
// re-presentment, the return fee, do-not-debit and NOCs; a reversed chargeback posts it back; the
// same event reported twice is applied once. Events come in as the reconciliation reports them.

// The job engine works in this process: a card run skips a do-not-debit account.
const world = useGatewayEventsWorld({ jobs: true });

async function setClientRules(represent: boolean, fee: string) {
  await world.testApp.db
    .update(clients)
    .set({ representAchReturns: represent, achReturnFee: fee })
    .where(eq(clients.id, world.tenants.a.clientId));
}

async function storedMethodOf(customerId: number) {
  const [method] = await world.testApp.db
    .select()
    .from(customerPaymentMethods)
    .where(
      and(
        eq(customerPaymentMethods.clientId, world.tenants.a.clientId),
        eq(customerPaymentMethods.customerId, customerId),
      ),
    );
  return method;
}

async function attemptsOf(customerId: number) {
  return world.testApp.db
    .select()
    .from(paymentAttempts)
    .where(
      and(eq(paymentAttempts.clientId, world.tenants.a.clientId), eq(paymentAttempts.customerId, customerId)),
    )
    .orderBy(paymentAttempts.id);
}

const descriptions = (entries: { description: string }[]) => entries.map((entry) => entry.description);

describe("ACH returns", () => {
  it("an NSF return (R01) reverses the payment, charges the fee once and presents it again at most twice", async () => {
    await setClientRules(true, "25.00");
    const { customerId } = await owingCustomer(world, "50.00");
    const sale = await achPayment(world, customerId, "11.00");
    expect(sale.settlementStatus).toBe("pending");
    expect(
      await report(world, {
        kind: "settled",
        originalTransId: sale.gatewayTransId,
        gatewayTransId: sale.gatewayTransId,
      }),
    ).toMatchObject({ applied: true });
    expect((await lastSale(world, customerId)).settlementStatus).toBe("settled");

    const first = {
      kind: "returned" as const,
      originalTransId: sale.gatewayTransId,
      code: "R01",
      amount: "11.00",
    };
    const returned = await report(world, first);
    expect(returned).toMatchObject({ applied: true, represent: true });
    // The same return reported again (a report read twice, or a post and a report) does nothing.
    expect(
      await report(world, {
        ...first,
        gatewayTransId:
          (await eventsOf(world, customerId)).find((e) => e.kind === "returned")?.gateway_trans_id ?? "",
      }),
    ).toMatchObject({ applied: false });

    let entries = await entriesOf(world, customerId);
    expect(descriptions(entries)).toContain("ACH return R01 Insufficient funds");
    expect(descriptions(entries)).toContain("ACH return fee R01");
    // Presented again at once: a new ACH payment of 11.00 (the sandbox approves it).
    const represented = await lastSale(world, customerId);
    expect(represented.id).not.toBe(sale.id);
    expect(represented).toMatchObject({
      status: "approved",
      amount: "11.00",
      method: "ach",
      masterId: sale.gatewayTransId,
    });
    // 50 - 11 (paid) + 11 (returned) + 25 (fee) - 11 (presented again).
    expect((await customerOf(world, customerId)).total_balance).toBe("64.00");
    expect((await lastSale(world, sale.customerId)).settlementStatus).toBe("pending");
    expect((await attemptsOf(customerId)).find((row) => row.id === sale.id)?.settlementStatus).toBe(
      "returned",
    );

    // The second presentment is returned too: presented a second time, no second fee.
    expect(
      await report(world, { kind: "returned", originalTransId: represented.gatewayTransId, code: "R09" }),
    ).toMatchObject({ applied: true, represent: true, feeTransactionId: null });
    const second = await lastSale(world, customerId);
    expect(second.id).not.toBe(represented.id);
    // The third return: never a third presentment.
    expect(
      await report(world, { kind: "returned", originalTransId: second.gatewayTransId, code: "R01" }),
    ).toMatchObject({ applied: true, represent: false, feeTransactionId: null });
    expect((await lastSale(world, customerId)).id).toBe(second.id);

    entries = await entriesOf(world, customerId);
    expect(descriptions(entries).filter((text) => text === "ACH return fee R01")).toHaveLength(1);
    const events = await eventsOf(world, customerId);
    expect(events.filter((event) => event.kind === "re_presented")).toHaveLength(2);
    expect(events.filter((event) => event.kind === "returned").map((event) => event.description)).toEqual(
      [
        "ACH return R01 Insufficient funds",
        "ACH return R09 Uncollected funds",
        "ACH return R01 Insufficient funds",
      ].reverse(),
    );
    // 64 + 11 (returned) - 11 (again) + 11 (returned) = 75: the fee stays, each payment came back.
    expect((await customerOf(world, customerId)).total_balance).toBe("75.00");
    await setClientRules(false, "0");
  });

  it("a return applied without a gateway (the reconciliation's call) is presented again by the sweep, once", async () => {
    await setClientRules(true, "0");
    const { customerId } = await owingCustomer(world, "30.00");
    const sale = await achPayment(world, customerId, "7.00");
    const applied = await applyGatewayEvent(world.testApp.db, {
      clientId: world.tenants.a.clientId,
      kind: "returned",
      gatewayTransId: "660000000001",
      originalTransId: sale.gatewayTransId,
      code: "R09",
      reason: "",
      amount: "7.00",
      date: new Date().toISOString().slice(0, 10),
      source: "report",
    });
    expect(applied).toMatchObject({ applied: true, represent: true });
    expect((await lastSale(world, customerId)).id).toBe(sale.id);
    const gateway = paymentGatewayOf(world.testApp.config);
    // Twice (and the job's own minute sweep may run meanwhile): one SALE, under one key.
    await sendDueRepresentments(world.testApp.db, gateway, world.tenants.a.clientId);
    expect(await sendDueRepresentments(world.testApp.db, gateway, world.tenants.a.clientId)).toBe(0);
    const presentments = (await attemptsOf(customerId)).filter((row) =>
      row.idempotencyKey.startsWith("re-present:"),
    );
    expect(presentments).toHaveLength(1);
    const again = await lastSale(world, customerId);
    expect(again).toMatchObject({ status: "approved", amount: "7.00", masterId: sale.gatewayTransId });
    expect(again.idempotencyKey).toMatch(new RegExp(`^re-present:${sale.id}:\\d+$`));
    const [presented] = (await eventsOf(world, customerId)).filter((event) => event.kind === "re_presented");
    expect(presented?.attempt_id).toBe(again.id);
    expect((await customerOf(world, customerId)).total_balance).toBe("23.00");
    await setClientRules(false, "0");
  });

  it("no re-presentment when the client has not turned it on, and no fee when none is set", async () => {
    await setClientRules(false, "0");
    const { customerId } = await owingCustomer(world, "40.00");
    const sale = await achPayment(world, customerId, "13.00");
    expect(
      await report(world, { kind: "returned", originalTransId: sale.gatewayTransId, code: "R01" }),
    ).toMatchObject({ applied: true, represent: false, feeTransactionId: null });
    expect((await lastSale(world, customerId)).id).toBe(sale.id);
    expect((await customerOf(world, customerId)).total_balance).toBe("40.00");
  });

  it("an administrative return (R03) marks the account do-not-debit and turns autopay off until new details", async () => {
    await setClientRules(true, "25.00");
    const { customerId } = await owingCustomer(world, "60.00");
    const sale = await achPayment(world, customerId, "15.00");
    expect((await customerOf(world, customerId)).autopay_flag).toBe(true);
    expect(
      await report(world, { kind: "returned", originalTransId: sale.gatewayTransId, code: "R03" }),
    ).toMatchObject({ applied: true, represent: false, feeTransactionId: null });
    const customer = await customerOf(world, customerId);
    expect(customer).toMatchObject({ total_balance: "60.00", autopay_flag: false });
    expect(customer.bluepay_transaction_message).toBe("ACH return R03 No account / unable to locate account");
    expect(await storedMethodOf(customerId)).toMatchObject({ doNotDebit: true });

    const refused = await payWithStored(world, customerId, "5.00");
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("must not be debited again");
    expect((await lastSale(world, customerId)).id).toBe(sale.id);

    // New details clear it.
    await achPayment(world, customerId, "7.00", "55443322");
    expect(await storedMethodOf(customerId)).toMatchObject({ doNotDebit: false, doNotDebitReason: "" });
    expect((await payWithStored(world, customerId, "3.00")).body).toMatchObject({ approved: true });
    await setClientRules(false, "0");
  });

  it("a return after the books closed is dated on the first open day, never in the closed period", async () => {
    const { customerId } = await owingCustomer(world, "30.00");
    const sale = await achPayment(world, customerId, "3.00");
    const paid = (await entriesOf(world, customerId)).find((entry) => entry.id === sale.transactionId);
    const closedThrough = paid?.serviceDate ?? "";
    await world.testApp.db
      .update(clients)
      .set({ booksClosedThrough: closedThrough })
      .where(eq(clients.id, world.tenants.a.clientId));
    try {
      await report(world, { kind: "returned", originalTransId: sale.gatewayTransId, code: "R01" });
      const reversal = (await entriesOf(world, customerId)).find(
        (entry) => entry.reverses_transaction === sale.transactionId,
      );
      expect(reversal?.description).toBe("ACH return R01 Insufficient funds");
      expect(reversal && reversal.serviceDate > closedThrough).toBe(true);
      expect((await customerOf(world, customerId)).total_balance).toBe("30.00");
    } finally {
      await world.testApp.db
        .update(clients)
        .set({ booksClosedThrough: null })
        .where(eq(clients.id, world.tenants.a.clientId));
    }
  });

  it("an unauthorized return (R10) is never presented again and carries no fee", async () => {
    await setClientRules(true, "25.00");
    const { customerId } = await owingCustomer(world, "30.00");
    const sale = await achPayment(world, customerId, "9.00");
    expect(
      await report(world, { kind: "returned", originalTransId: sale.gatewayTransId, code: "R10" }),
    ).toMatchObject({ applied: true, represent: false, feeTransactionId: null });
    expect((await lastSale(world, customerId)).id).toBe(sale.id);
    expect(descriptions(await entriesOf(world, customerId))).toContain(
      "ACH return R10 Customer advises not authorized",
    );
    expect((await customerOf(world, customerId)).total_balance).toBe("30.00");
    expect(await storedMethodOf(customerId)).toMatchObject({ doNotDebit: true });
    await setClientRules(false, "0");
  });

  it("a notification of change keeps the correction masked and holds the account until new details", async () => {
    const { customerId } = await owingCustomer(world, "30.00");
    const sale = await achPayment(world, customerId, "5.00");
    expect(
      await report(world, {
        kind: "noc",
        originalTransId: sale.gatewayTransId,
        code: "C01",
        correctedData: "123456789",
      }),
    ).toMatchObject({ applied: true });
    const [noc] = await eventsOf(world, customerId);
    expect(noc).toMatchObject({
      kind: "noc",
      corrected_data: "xxxxx6789",
      description: "Bank correction C01 Incorrect account number",
    });
    expect(await storedMethodOf(customerId)).toMatchObject({ doNotDebit: true });
    expect((await payWithStored(world, customerId, "5.00")).status).toBe(400);
    // No money moved.
    expect((await customerOf(world, customerId)).total_balance).toBe("25.00");
  });
});

describe("card runs and autopay", () => {
  it("skip a do-not-debit bank account with its message and charge nothing", async () => {
    const { customerId } = await owingCustomer(world, "40.00");
    const sale = await achPayment(world, customerId, "11.00");
    await report(world, { kind: "returned", originalTransId: sale.gatewayTransId, code: "R02" });
    const started = await world.testApp
      .client(world.tenants.a.staffToken)
      .post("/api/customers/make-bulk-payments/", { ids: [customerId] });
    expect(started.status, started.text).toBe(202);
    const { job } = cardRunStartedSchema.parse(started.body);
    const run = await waitForCardRun(world.testApp.client(world.tenants.a.staffToken), job.id);
    expect(run.paymentResults).toEqual([
      expect.objectContaining({ customer_id: customerId, status: "skipped", account_balance: "40.00" }),
    ]);
    expect(run.paymentResults[0]?.message_response).toContain("must not be debited again");
    const charged = (await attemptsOf(customerId)).filter((row) => row.status === "approved");
    expect(charged.map((row) => row.id)).toEqual([sale.id]);
  });
});

describe("chargebacks", () => {
  it("a chargeback reverses a card payment; its reversal posts the payment back, once", async () => {
    const { customerId } = await owingCustomer(world, "40.00");
    const sale = await cardSale(world, customerId, "13.00");
    expect(sale.settlementStatus).toBe("pending");
    expect(
      await report(world, {
        kind: "charged_back",
        originalTransId: sale.gatewayTransId,
        code: "4837",
        reason: "No cardholder authorization",
      }),
    ).toMatchObject({ applied: true });
    expect((await customerOf(world, customerId)).total_balance).toBe("40.00");
    expect(descriptions(await entriesOf(world, customerId))).toContain(
      "Chargeback 4837 No cardholder authorization",
    );
    expect((await lastSale(world, customerId)).settlementStatus).toBe("charged_back");

    const reversal = {
      kind: "chargeback_reversed" as const,
      originalTransId: sale.gatewayTransId,
      code: "4837",
      gatewayTransId: "880000000001",
    };
    expect(await report(world, reversal)).toMatchObject({ applied: true });
    expect(await report(world, reversal)).toMatchObject({ applied: false });
    // Another record of the same reversal posts nothing more either.
    expect(await report(world, { ...reversal, gatewayTransId: "880000000002" })).toMatchObject({
      transactionId: null,
    });
    expect((await customerOf(world, customerId)).total_balance).toBe("27.00");
    expect(descriptions(await entriesOf(world, customerId))).toContain("Chargeback reversed 4837");
    expect((await lastSale(world, customerId)).settlementStatus).toBe("settled");
  });

  it("a provider admin records a return read off BluePay's console; no one else may", async () => {
    const { customerId } = await owingCustomer(world, "20.00");
    const sale = await achPayment(world, customerId, "5.00");
    const body = {
      kind: "returned",
      gateway_trans_id: "770000000001",
      original_trans_id: sale.gatewayTransId,
      code: "R01",
    };
    const owner = world.testApp.client(world.tenants.a.ownerToken);
    expect((await owner.post("/api/gateway/events/", body)).status).toBe(403);
    const admin = world.testApp.client(world.tenants.adminToken);
    const bad = await admin.post(
      "/api/gateway/events/",
      { ...body, gateway_trans_id: "R01" },
      {
        client_id: world.tenants.a.clientId,
      },
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toHaveProperty("gateway_trans_id");
    const made = await admin.post("/api/gateway/events/", body, { client_id: world.tenants.a.clientId });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ applied: true });
    const [event] = await eventsOf(world, customerId);
    expect(event).toMatchObject({
      source: "manual",
      amount: "5.00",
      description: "ACH return R01 Insufficient funds",
    });
    expect((await customerOf(world, customerId)).total_balance).toBe("20.00");
  });

  it("another client's staff see none of it", async () => {
    const response = await world.testApp.client(world.tenants.b.staffToken).get("/api/gateway/events/");
    expect(response.body).toMatchObject({ count: 0, results: [] });
    const foreign = await world.testApp
      .client(world.tenants.b.staffToken)
      .get("/api/gateway/events/", { client_id: world.tenants.a.clientId });
    expect(foreign.status).toBe(404);
  });
});
