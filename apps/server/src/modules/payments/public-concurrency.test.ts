import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import { addAmounts, compareAmounts, type PaymentResult } from "@cyclebill/domain";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Database, DatabaseHandle } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDecimal, dbText } from "../../db/row-schemas.js";
import { clients } from "../../db/tables.js";
import {
  GATEWAY_ACCOUNT_A,
  cardPayment,
  customerWithStatement,
  startPaymentFixture,
  type PaymentFixture,
} from "../../test-support/payment-fixture.js";
import { startServerProcess, type ServerProcess } from "../../test-support/server-process.js";
import { gatewayAccountFields, luhnCard } from "../../test-support/stored-cards.js";
import { httpClient, type ApiClient } from "../../test-support/test-app.js";
import { openTestDatabase } from "../../test-support/test-database.js";

// Issue 37, point 7: parallel payments through one pay link never add up to more than is owed.
// Each request takes the customer's lock, counts the sales in flight and saves its attempt in one
// transaction before calling the gateway; the others are refused (409 while one is in flight, 400
// once the balance left is below their amount).

const PAYERS = 20;
const OWED = "50.63";
const AMOUNTS = ["45.00", "47.00", "49.00", "3.00", "5.00"];

type Sent = { status: number; body: PaymentResult | { detail?: string } };

/** 20 public payments at once, each from its own address (distinct cards: no duplicate scrubbing). */
async function payAtOnce(apis: readonly ApiClient[], token: string, run: number): Promise<Sent[]> {
  return Promise.all(
    Array.from({ length: PAYERS }, async (_, n) => {
      const response = await apis[n % apis.length]!.request("POST", "/api/payments/make-payment/customer/", {
        body: cardPayment(token, AMOUNTS[n % AMOUNTS.length]!, {
          ccNum: luhnCard("4", 7_000 + run * 100 + n),
        }),
        headers: { "idempotency-key": `parallel-${run}-${n}`, "x-forwarded-for": `198.51.100.${n + 1}` },
      });
      return { status: response.status, body: response.body as Sent["body"] };
    }),
  );
}

/** The customer's balance and the ORDER_IDs of its sales. */
const chargedRowSchema = z.object({ balance: dbDecimal, orders: z.array(dbText) });

async function expectBoundHeld(db: Database, sandbox: Sandbox, customerId: number, sent: Sent[]) {
  expect(sent.map((s) => s.status).filter((status) => ![200, 400, 409].includes(status))).toEqual([]);
  const approved = sent
    .filter((s) => s.status === 200 && (s.body as PaymentResult).approved)
    .map((s) => (s.body as PaymentResult).amount_response);
  expect(approved.length).toBeGreaterThan(0);
  const total = approved.reduce(addAmounts, "0.00");
  expect(compareAmounts(total, OWED)).toBeLessThanOrEqual(0);
  // What the gateway charged is what the ledger holds, and the balance never goes below zero.
  const [row] = await queryRows(
    db,
    sql`select c.total_balance::text as balance,
               coalesce(array_agg(a.order_id) filter (where a.kind = 'sale'), '{}') as orders
        from customers c left join payment_attempts a on a.client_id = c.client_id and a.customer_id = c.id
        where c.id = ${customerId} group by c.total_balance`,
    chargedRowSchema,
  );
  const orders = new Set(row?.orders ?? []);
  const charged = sandbox.transactions().filter((t) => orders.has(t.orderId) && t.status === "1");
  expect(charged.map((t) => t.amount).sort()).toEqual([...approved].sort());
  expect(compareAmounts(row?.balance ?? "0", "0.00")).toBeGreaterThanOrEqual(0);
}

describe("one API process, parallel requests", () => {
  let fixture: PaymentFixture | undefined;
  beforeAll(async () => {
    fixture = await startPaymentFixture({ trustProxy: ["127.0.0.1"] });
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it(`${PAYERS} parallel payments against a ${OWED} balance never add up to more than is owed`, async () => {
    const { testApp, tenants, sandbox } = fixture!;
    const { customerId, token } = await customerWithStatement(testApp, tenants.a.clientId, OWED);
    const sent = await payAtOnce([testApp.client()], token, 1);
    await expectBoundHeld(testApp.db, sandbox, customerId, sent);
  });
});

describe.runIf(process.env.TEST_DB === "postgres")("two API processes on one PostgreSQL database", () => {
  let database: DatabaseHandle;
  let sandbox: Sandbox | undefined;
  let dataDir = "";
  const apis: ServerProcess[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "cyclebill-parallel-pay-"));
    database = await openTestDatabase();
    if (database.jobBackend.kind !== "postgres") throw new Error("needs PostgreSQL");
    sandbox = await startSandbox({ accounts: [GATEWAY_ACCOUNT_A], demoAccount: false });
    const env = { TRUST_PROXY: "127.0.0.1", BLUEPAY_URL: sandbox.bp20postUrl, BLUEPAY_MODE: "TEST" };
    const url = database.jobBackend.url;
    apis.push(...(await Promise.all([1, 2].map(() => startServerProcess(url, { dataDir, env })))));
  }, 120_000);

  afterAll(async () => {
    for (const api of apis) if (api.child.exitCode === null) api.child.kill("SIGTERM");
    await Promise.all(apis.map((api) => api.exited));
    await database?.close();
    await sandbox?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it(`${PAYERS} parallel payments through both processes never add up to more than is owed`, async () => {
    const [client] = await database.db
      .insert(clients)
      .values({
        clientNo: 5353,
        clientName: "Parallel payers",
        ...gatewayAccountFields("multi-process-test", GATEWAY_ACCOUNT_A),
      })
      .returning({ id: clients.id });
    if (!client) throw new Error("no client");
    const { customerId, token } = await customerWithStatement({ db: database.db }, client.id, OWED);
    const sent = await payAtOnce(
      apis.map((api) => httpClient(api.baseUrl)),
      token,
      2,
    );
    await expectBoundHeld(database.db, sandbox!, customerId, sent);
  });
});
