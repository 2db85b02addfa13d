import { startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import type { GatewayEventRecord, TransactionRecord } from "@cyclebill/domain";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import { clients, customers, paymentAttempts } from "../db/tables.js";
import { applyGatewayEvent, type GatewayEventInput } from "../modules/gateway-events/apply-gateway-event.js";
import { paymentGatewayOf } from "../modules/payments/payment-gateway.js";
import {
  GATEWAY_ACCOUNT_A,
  GATEWAY_ACCOUNT_B,
  customerWithStatement,
  makePayment,
} from "./payment-fixture.js";
import { startRejectStandIn, type RejectStandIn } from "./gateway-rejects.js";
import { gatewayAccountFields } from "./stored-cards.js";
import { createTenantFixture, startTestApp, type TenantFixture, type TestApp } from "./test-app.js";

// What the tests of returns, chargebacks and Trans Notify share: a server whose gateway is the
// sandbox behind a stand-in that can show REJECT records, two clients with gateway keys, and
// helpers that pay, report an event and read what staff see.

export type GatewayEventsWorld = {
  testApp: TestApp;
  sandbox: Sandbox;
  standIn: RejectStandIn;
  tenants: TenantFixture;
};

export function useGatewayEventsWorld(options: { jobs?: boolean } = {}): GatewayEventsWorld {
  const world = {} as GatewayEventsWorld;
  beforeAll(async () => {
    world.sandbox = await startSandbox({
      accounts: [GATEWAY_ACCOUNT_A, GATEWAY_ACCOUNT_B],
      demoAccount: false,
    });
    world.standIn = await startRejectStandIn(world.sandbox.bp20postUrl);
    world.testApp = await startTestApp({
      bluepay: { url: world.standIn.bp20postUrl, mode: "TEST", timeoutMs: 5_000 },
      ...(options.jobs ? { jobs: {} } : {}),
    });
    world.tenants = await createTenantFixture(world.testApp);
    for (const [tenant, account] of [
      [world.tenants.a, GATEWAY_ACCOUNT_A],
      [world.tenants.b, GATEWAY_ACCOUNT_B],
    ] as const)
      await world.testApp.db
        .update(clients)
        .set(gatewayAccountFields(world.testApp.config.secretsKey, account))
        .where(eq(clients.id, tenant.clientId));
  });
  afterAll(async () => {
    await world.testApp?.close();
    await world.standIn?.close();
    await world.sandbox?.close();
  });
  return world;
}

let keyNo = 0;
let rejectNo = 0;

/** A fresh REJECT record id, as the gateway numbers its records (12 digits). */
export function nextRejectId(): string {
  rejectNo += 1;
  return String(990_000_000_000 + (Date.now() % 1_000_000) * 100 + rejectNo);
}

/** A customer of client a owing `balance`; with an email address when asked (its notices are then sent). */
export async function owingCustomer(world: GatewayEventsWorld, balance: string, withEmail = false) {
  const made = await customerWithStatement(world.testApp, world.tenants.a.clientId, balance);
  const email = withEmail ? `payer-${made.customerId}-${Date.now()}@example.com` : "";
  await world.testApp.db
    .update(customers)
    .set({ email })
    .where(and(eq(customers.clientId, world.tenants.a.clientId), eq(customers.id, made.customerId)));
  return { ...made, email };
}

/** Staff pay by bank account (stored, with autopay, unless told otherwise); answers the approved attempt. */
export async function achPayment(
  world: GatewayEventsWorld,
  customerId: number,
  amount: string,
  // One account per customer: the sandbox scrubs the same account and amount as a duplicate.
  account = `7766${String(customerId).padStart(4, "0")}`,
) {
  const response = await makePayment(
    world.testApp,
    {
      customer_id: customerId,
      paymentMethod: "check",
      checkRoutingNum: "123456780",
      checkAccountNum: account,
      amount,
      savePaymentInfo: true,
      autoPay: true,
    },
    `gateway-events-${++keyNo}`,
    world.tenants.a.ownerToken,
  );
  if ((response.body as { approved?: boolean }).approved !== true)
    throw new Error(`ACH payment not approved: ${JSON.stringify(response.body)}`);
  return lastSale(world, customerId);
}

/** Staff pay by the Visa test card. */
export async function cardSale(world: GatewayEventsWorld, customerId: number, amount: string) {
  const response = await makePayment(
    world.testApp,
    {
      customer_id: customerId,
      paymentMethod: "cc",
      ccNum: "4111111111111111",
      cvv: "123",
      expMonth: "12",
      expYear: "39",
      amount,
    },
    `gateway-events-${++keyNo}`,
    world.tenants.a.ownerToken,
  );
  if ((response.body as { approved?: boolean }).approved !== true)
    throw new Error(`card payment not approved: ${JSON.stringify(response.body)}`);
  return lastSale(world, customerId);
}

/** Pays with the stored method (staff), answering the response. */
export function payWithStored(world: GatewayEventsWorld, customerId: number, amount: string) {
  return makePayment(
    world.testApp,
    { customer_id: customerId, paymentMethod: "useSaved", amount },
    `gateway-events-${++keyNo}`,
    world.tenants.a.ownerToken,
  );
}

export async function lastSale(world: GatewayEventsWorld, customerId: number) {
  const rows = await world.testApp.db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.clientId, world.tenants.a.clientId),
        eq(paymentAttempts.customerId, customerId),
        eq(paymentAttempts.kind, "sale"),
      ),
    )
    .orderBy(paymentAttempts.id);
  const last = rows.at(-1);
  if (!last) throw new Error("no sale");
  return last;
}

/** Reports one event about the sale `originalTransId` of client a, as the reconciliation would. */
export function report(
  world: GatewayEventsWorld,
  event: Pick<GatewayEventInput, "kind" | "originalTransId"> & Partial<GatewayEventInput>,
) {
  return applyGatewayEvent(
    world.testApp.db,
    {
      clientId: world.tenants.a.clientId,
      gatewayTransId: nextRejectId(),
      code: "",
      reason: "",
      amount: "0",
      date: new Date().toISOString().slice(0, 10),
      source: "report",
      ...event,
    },
    { gateway: paymentGatewayOf(world.testApp.config) },
  );
}

export async function entriesOf(world: GatewayEventsWorld, customerId: number): Promise<TransactionRecord[]> {
  const response = await world.testApp
    .client(world.tenants.a.staffToken)
    .get("/api/transactions/", { customer__id: customerId, limit: 100, ordering: "id" });
  return (response.body as { results: TransactionRecord[] }).results;
}

export async function customerOf(world: GatewayEventsWorld, customerId: number) {
  const response = await world.testApp
    .client(world.tenants.a.staffToken)
    .get(`/api/customers/${customerId}/`);
  return response.body as {
    total_balance: string;
    autopay_flag: boolean;
    bluepay_transaction_message?: string;
  };
}

export async function eventsOf(world: GatewayEventsWorld, customerId: number): Promise<GatewayEventRecord[]> {
  const response = await world.testApp
    .client(world.tenants.a.staffToken)
    .get("/api/gateway/events/", { customer_id: customerId, limit: 100 });
  return (response.body as { results: GatewayEventRecord[] }).results;
}
