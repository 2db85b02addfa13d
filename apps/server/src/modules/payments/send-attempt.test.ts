import { startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/database.js";
import {
  clients,
  customerPaymentMethods,
  customers,
  paymentAttempts,
  transactions,
} from "../../db/tables.js";
import { openTestDatabase } from "../../test-support/test-database.js";
import type { PaymentGateway } from "./payment-gateway.js";
import { sendPaymentAttempt, type SendPaymentInput } from "./send-attempt.js";
import { settlePendingAttempts } from "./settle-attempts.js";
import { gatewayAccountFields } from "../../test-support/stored-cards.js";

// sendPaymentAttempt against the sandbox over HTTP and a real database.

const SECRETS_KEY = "send-attempt-test-key";
const ACCOUNT = { accountId: "100000000077", secretKey: "SENDATTEMPTSECRETKEY0123456789AB" };
const CARD = { kind: "card", number: "4111111111111111", expire: "1239", cvv2: "123" } as const;

let database: DatabaseHandle;
let sandbox: Sandbox;
let gateway: PaymentGateway;
let clientId = 0;
let customerIds: number[] = [];
let keyNo = 0;

beforeAll(async () => {
  database = await openTestDatabase();
  sandbox = await startSandbox({ accounts: [ACCOUNT], demoAccount: false });
  gateway = {
    url: sandbox.bp20postUrl,
    mode: "TEST",
    timeoutMs: 2_000,
    secretsKey: SECRETS_KEY,
    installationId: "sendattempt",
  };
  const [client] = await database.db
    .insert(clients)
    .values({
      clientNo: 7001,
      clientName: "Gateway Co",
      ...gatewayAccountFields(SECRETS_KEY, ACCOUNT),
    })
    .returning({ id: clients.id });
  clientId = client?.id ?? 0;
  const rows = await database.db
    .insert(customers)
    .values(
      [1, 2, 3, 4].map((no) => ({ clientId, customerNo: no, firstName: "Ann", lastName: `Payer${no}` })),
    )
    .returning({ id: customers.id });
  customerIds = rows.map((row) => row.id);
});

afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

function input(customerIndex: number, changes: Partial<SendPaymentInput> = {}): SendPaymentInput {
  keyNo += 1;
  return {
    clientId,
    customerId: customerIds[customerIndex] ?? 0,
    source: "staff",
    kind: "sale",
    amount: "11.00",
    idempotencyKey: `test-${keyNo}`,
    account: CARD,
    ...changes,
  };
}

async function entriesOf(customerId: number) {
  return database.db
    .select({
      amount: transactions.amount,
      ledger: transactions.ledgerAmount,
      trans: transactions.gatewayTransId,
    })
    .from(transactions)
    .where(and(eq(transactions.clientId, clientId), eq(transactions.customerId, customerId)));
}

async function customerRow(customerId: number) {
  const [row] = await database.db
    .select()
    .from(customers)
    .where(and(eq(customers.clientId, clientId), eq(customers.id, customerId)));
  return row;
}

describe("sendPaymentAttempt", () => {
  it("posts one payment entry for an approved sale, carrying the gateway's TRANS_ID; ORDER_ID is the installation's id and the attempt id", async () => {
    const outcome = await sendPaymentAttempt(database.db, input(0, { amount: "11.00" }), gateway);
    expect(outcome).toMatchObject({ status: "approved", approved: true, amount: "11.00", replayed: false });
    expect(outcome.message).toMatch(/approved/i);
    expect(outcome.accountBalance).toBe("-11.00");
    const entries = await entriesOf(customerIds[0] ?? 0);
    expect(entries).toEqual([{ amount: "11.00", ledger: "-11.00", trans: outcome.gatewayTransId }]);
    const recorded = sandbox.transactions().find((t) => t.transId === outcome.gatewayTransId);
    expect(recorded?.orderId).toBe(`sendattempt-${outcome.attemptId}`);
    expect((await customerRow(customerIds[0] ?? 0))?.bluepayTransactionMessage).toBe(outcome.message);
  });

  it("records a declined sale and posts nothing", async () => {
    const outcome = await sendPaymentAttempt(database.db, input(1, { amount: "12.00" }), gateway);
    expect(outcome).toMatchObject({ status: "declined", approved: false, message: "Declined" });
    expect(await entriesOf(customerIds[1] ?? 0)).toEqual([]);
    const [attempt] = await database.db
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.id, outcome.attemptId));
    expect(attempt).toMatchObject({ status: "declined", mask: "xxxxxxxxxxxx1111", transactionId: null });
    expect((await customerRow(customerIds[1] ?? 0))?.bluepayTransactionMessage).toBe("Declined");
  });

  it("a retry with the same key returns the first outcome and charges once", async () => {
    const first = input(2, { amount: "13.00" });
    const once = await sendPaymentAttempt(database.db, first, gateway);
    const twice = await sendPaymentAttempt(database.db, first, gateway);
    expect(twice).toMatchObject({ ...once, replayed: true });
    expect(await entriesOf(customerIds[2] ?? 0)).toHaveLength(1);
    expect(sandbox.transactions().filter((t) => t.amount === "13.00")).toHaveLength(1);
  });

  it("stores a method with a $0.00 AUTH and charges it by MASTER_ID", async () => {
    const customerId = customerIds[3] ?? 0;
    const stored = await sendPaymentAttempt(
      database.db,
      input(3, { kind: "auth", amount: "0", autopay: true }),
      gateway,
    );
    expect(stored).toMatchObject({ status: "approved", approved: true });
    const [method] = await database.db
      .select()
      .from(customerPaymentMethods)
      .where(eq(customerPaymentMethods.customerId, customerId));
    expect(method).toMatchObject({
      kind: "card",
      token: stored.gatewayTransId,
      mask: "xxxxxxxxxxxx1111",
      cardType: "VISA",
      expiry: "1239",
    });
    expect(await customerRow(customerId)).toMatchObject({
      bluepayTransactionId: stored.gatewayTransId,
      autopayFlag: true,
    });
    expect(await entriesOf(customerId)).toEqual([]);
    const charged = await sendPaymentAttempt(
      database.db,
      input(3, { amount: "15.00", account: { kind: "stored" } }),
      gateway,
    );
    expect(charged).toMatchObject({ status: "approved", accountBalance: "-15.00" });
    const sent = sandbox.transactions().find((t) => t.transId === charged.gatewayTransId);
    expect(sent?.masterId).toBe(stored.gatewayTransId);
  });

  it("a lost answer is unknown, is settled by asking the gateway for its ORDER_ID, and posts once", async () => {
    sandbox.setFaults({ dropRate: 1 });
    const request = input(0, { amount: "17.00" });
    let outcome;
    try {
      outcome = await sendPaymentAttempt(database.db, request, gateway);
    } finally {
      sandbox.setFaults({ dropRate: 0 });
    }
    // The query right after the lost answer went through the same failing sandbox: still unknown.
    expect(outcome.status).toBe("unknown");
    expect(await settlePendingAttempts(database.db, clientId, null, gateway)).toEqual({
      settled: 1,
      pending: 0,
    });
    const again = await sendPaymentAttempt(database.db, request, gateway);
    expect(again).toMatchObject({ status: "approved", replayed: true });
    const entries = await entriesOf(customerIds[0] ?? 0);
    expect(entries.filter((entry) => entry.amount === "17.00")).toHaveLength(1);
    expect(sandbox.transactions().filter((t) => t.amount === "17.00")).toHaveLength(1);
  });
});
