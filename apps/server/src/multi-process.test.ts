import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import type { PaymentResult } from "@cyclebill/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { DatabaseHandle } from "./db/database.js";
import { queryRows } from "./db/query-rows.js";
import { dbDecimal, dbInt } from "./db/row-schemas.js";
import { clients } from "./db/tables.js";
import { issueSessionToken } from "./modules/auth/start-session.js";
import { ledgerMismatches } from "./modules/ledger/ledger-mismatches.js";
import { createUser } from "./modules/users/create-user.js";
import { GATEWAY_ACCOUNT_A, cardPayment, customerWithStatement } from "./test-support/payment-fixture.js";
import { startServerProcess, type ServerProcess } from "./test-support/server-process.js";
import { createProductionClient } from "./test-support/production-client.js";
import { httpClient, type ApiClient } from "./test-support/test-app.js";
import { openTestDatabase } from "./test-support/test-database.js";
import { startWorkerProcess, waitFor, type WorkerProcess } from "./test-support/worker-process.js";
import { gatewayAccountFields } from "./test-support/stored-cards.js";

// Two API processes (WORKERS=0) and two worker processes on one PostgreSQL database, as a bureau
// runs them behind a proxy: what one process records, the others obey — a login throttle, a
// payment retried through the other process with the same idempotency key, and a production run
// started on one API, worked by both workers and followed on the other API.

const CUSTOMERS = 60;
const CYCLE = 9;
const RUN_DATE = "2025-04-09";
const JWT_SECRET = "multi-process-test";
const SECRETS_KEY = "multi-process-test";

describe.runIf(process.env.TEST_DB === "postgres")(
  "two API processes and two workers on one database",
  () => {
    let database: DatabaseHandle;
    let dataDir = "";
    let sandbox: Sandbox | undefined;
    const apis: ServerProcess[] = [];
    const workers: WorkerProcess[] = [];

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), "cyclebill-multi-process-"));
      database = await openTestDatabase();
      if (database.jobBackend.kind !== "postgres") throw new Error("needs PostgreSQL");
      const url = database.jobBackend.url;
      // Both APIs trust the test's loopback address as a proxy, so X-Forwarded-For names the caller.
      sandbox = await startSandbox({ accounts: [GATEWAY_ACCOUNT_A], demoAccount: false });
      const env = { TRUST_PROXY: "127.0.0.1", BLUEPAY_URL: sandbox.bp20postUrl, BLUEPAY_MODE: "TEST" };
      apis.push(...(await Promise.all([1, 2].map(() => startServerProcess(url, { dataDir, env })))));
      for (let index = 0; index < 2; index++)
        workers.push(startWorkerProcess(url, { dataDir, expireSeconds: 30, chunkSize: 10 }));
    }, 120_000);

    afterAll(async () => {
      for (const child of [...apis, ...workers])
        if (child.child.exitCode === null) child.child.kill("SIGTERM");
      await Promise.all([...apis, ...workers].map((child) => child.exited));
      await database?.close();
      await sandbox?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }, 60_000);

    const api = (index: number, token?: string): ApiClient => httpClient(apis[index]!.baseUrl, token);

    it("holds a login throttle across API processes", async () => {
      await createUser(database.db, {
        email: "throttled@multi.example",
        password: "right pass 8351",
        isAdmin: false,
      });
      const guess = (index: number, attempt: number) =>
        api(index).request("POST", "/api/auth-jwt/", {
          body: { username: "throttled@multi.example", password: `wrong ${attempt}` },
          headers: { "x-forwarded-for": "198.51.100.23" },
        });
      // Ten wrong guesses, alternating between the two processes, are each checked (400) ...
      for (let attempt = 0; attempt < 10; attempt++)
        expect((await guess(attempt % 2, attempt)).status).toBe(400);
      // ... and the eleventh is refused on either process, even with the right password.
      for (const index of [0, 1]) {
        const refused = await api(index).request("POST", "/api/auth-jwt/", {
          body: { username: "throttled@multi.example", password: "right pass 8351" },
          headers: { "x-forwarded-for": "198.51.100.23" },
        });
        expect(refused.status).toBe(429);
      }
      // Another address still logs in (the lock is per account and address).
      const elsewhere = await api(1).request("POST", "/api/auth-jwt/", {
        body: { username: "throttled@multi.example", password: "right pass 8351" },
        headers: { "x-forwarded-for": "198.51.100.99" },
      });
      expect(elsewhere.status).toBe(200);
    });

    it("holds the registration limit of one address across API processes", async () => {
      const register = (index: number, n: number) =>
        api(index).request("POST", "/api/register/", {
          body: {
            firstName: "Multi",
            lastName: `Reg ${n}`,
            email: `multi-reg-${n}@multi.example`,
            password: "multi sturdy pass",
            confirmPassword: "multi sturdy pass",
          },
          headers: { "x-forwarded-for": "198.51.100.77" },
        });
      // Ten, alternating between the two processes, are taken; the eleventh is refused on either.
      for (let n = 0; n < 10; n++) expect((await register(n % 2, n)).status).toBe(201);
      for (const index of [0, 1]) expect((await register(index, 10 + index)).status).toBe(429);
    });

    it("charges once for a payment sent through one API and retried through the other", async () => {
      const { db } = database;
      const [client] = await db
        .insert(clients)
        .values({
          clientNo: 5252,
          clientName: "Multi-process payments",
          ...gatewayAccountFields(SECRETS_KEY, GATEWAY_ACCOUNT_A),
        })
        .returning({ id: clients.id });
      if (!client || !sandbox) throw new Error("client or sandbox missing");
      const { customerId, token } = await customerWithStatement({ db }, client.id, "25.00");
      const pay = (index: number, key: string, amount = "5.00") =>
        api(index).request("POST", "/api/payments/make-payment/customer/", {
          body: cardPayment(token, amount),
          headers: { "idempotency-key": key, "x-forwarded-for": "198.51.100.40" },
        });

      // A retry (lost answer, double click) with the same key through the other process ...
      const first = await pay(0, "multi-process-key-1");
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ approved: true, amount_response: "5.00" });
      const retried = await pay(1, "multi-process-key-1");
      expect(retried.status).toBe(200);
      expect(retried.body).toEqual(first.body as PaymentResult);
      // ... and one key sent to both at once (another amount: the gateway refuses a repeat sale of the
      // same card and amount within seconds as DUPLICATE): one charge, never two; the later may get 409.
      const together = await Promise.all([
        pay(0, "multi-process-key-2", "7.00"),
        pay(1, "multi-process-key-2", "7.00"),
      ]);
      const statuses = together.map((response) => response.status).sort();
      expect([
        [200, 200],
        [200, 409],
      ]).toContainEqual(statuses);

      const sales = sandbox.transactions().filter((sale) => sale.transType === "SALE" && sale.status === "1");
      expect(sales).toHaveLength(2);
      const [posted] = await queryRows(
        db,
        sql`select (select count(*)::int from transactions t where t.client_id = c.client_id and t.customer_id = c.id
                    and t.gateway_trans_id is not null) as payments, c.total_balance::text as balance
            from customers c where c.client_id = ${client.id} and c.id = ${customerId}`,
        z.object({ payments: dbInt, balance: dbDecimal }),
      );
      expect(posted).toEqual({ payments: 2, balance: "13.00" });
      expect(await ledgerMismatches(db, { clientId: client.id })).toEqual([]);
    });

    it(
      "runs a production run started on one API with both workers, followed on the other",
      { timeout: 180_000 },
      async () => {
        const { db } = database;
        const { clientId } = await createProductionClient(db, {
          clientNo: 5151,
          cycle: CYCLE,
          dateLastBilling: "2025-03-09",
          customers: CUSTOMERS,
        });
        const admin = await createUser(db, { email: "admin@multi.example", password: null, isAdmin: true });
        const token = await issueSessionToken(db, JWT_SECRET, admin.id, {
          address: "127.0.0.1",
          userAgent: "test",
        });

        const started = await api(0, token).request("POST", `/api/dailyproduction/cycle/${CYCLE}/`, {
          body: { run_date: RUN_DATE },
        });
        expect(started.status).toBe(202);
        const runId = (started.body as { id: number }).id;
        let last: { status?: string; done?: number; total?: number } = {};
        await waitFor("the run to finish, read through the other API process", async () => {
          const response = await api(1, token).get(`/api/productionruns/${runId}/`);
          last = response.body as typeof last;
          return last.status === "done" || last.status === "failed";
        });
        expect(last).toMatchObject({ status: "done" });

        // Every customer got exactly one recurring charge and one statement, by whichever worker.
        const counts = await queryRows(
          db,
          sql`select (select count(*)::int from transactions t where t.client_id = c.client_id and t.customer_id = c.id
                    and t.transaction_type = 'recurring') as recurring,
                 (select count(*)::int from statements s where s.client_id = c.client_id and s.customer_id = c.id) as statements
            from customers c where c.client_id = ${clientId}`,
          z.object({ recurring: dbInt, statements: dbInt }),
        );
        expect(counts).toHaveLength(CUSTOMERS);
        expect(counts.every((row) => row.recurring === 1 && row.statements === 1)).toBe(true);
        expect(await ledgerMismatches(db, { clientId })).toEqual([]);
      },
    );
  },
);
