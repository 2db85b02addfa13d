import { startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import { addDays, cardRunSchema, cardRunStartedSchema, type CardRun } from "@cyclebill/domain";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { businessToday, currentClock, setClock } from "../../clock.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal, dbText } from "../../db/row-schemas.js";
import { clients, codes, customers, recurringCharges } from "../../db/tables.js";
import { pollUntil } from "../../test-support/poll-until.js";
import { monthlyCharge } from "../../test-support/ledger-rows.js";
import { runProductionCycle } from "../../test-support/production-app.js";
import { storeCardOnFile, gatewayAccountFields } from "../../test-support/stored-cards.js";
import {
  createTenantFixture,
  startTestApp,
  type ApiClient,
  type TestApp,
} from "../../test-support/test-app.js";
import { startOfBusinessDay } from "./start-card-run.js";

// Issue 28 point 3: a run dated today queues its autopay card run, which charges nothing before the
// charge date (the statement's due date); on the charge date it charges, dated that day, in the
// period the run left open.

const ACCOUNT = { accountId: "100000002828", secretKey: "AUTOPAYDATETESTSECRETKEY00000001" };
const CYCLE = 11;
const realClock = currentClock();

let sandbox: Sandbox;
let testApp: TestApp;
let admin: ApiClient;
let staff: ApiClient;
let clientId: number;

beforeAll(async () => {
  sandbox = await startSandbox({ accounts: [ACCOUNT], demoAccount: false });
  testApp = await startTestApp({
    jobs: { chunkSize: 4 },
    bluepay: { url: sandbox.bp20postUrl, timeoutMs: 5_000 },
  });
  const fixture = await createTenantFixture(testApp);
  clientId = fixture.a.clientId;
  admin = testApp.client(fixture.adminToken);
  staff = testApp.client(fixture.a.staffToken);
});

afterEach(() => setClock(realClock));

afterAll(async () => {
  await testApp?.close();
  await sandbox?.close();
});

async function autopayCustomer(): Promise<number> {
  const [code] = await testApp.db
    .insert(codes)
    .values({ clientId, code: 100, description: "Service", codeType: "charge" })
    .returning({ id: codes.id });
  const [row] = await testApp.db
    .insert(customers)
    .values({
      clientId,
      customerNo: 41,
      customerName: "Avery Autopay",
      firstName: "Avery",
      lastName: "Autopay",
      address1: "9 Elm St",
      city: "Austin",
      state: "TX",
      zip: "73301",
      autopayFlag: true,
    })
    .returning({ id: customers.id });
  if (!row || !code) throw new Error("customer not created");
  await storeCardOnFile(
    testApp.db,
    { url: sandbox.bp20postUrl, account: ACCOUNT },
    { clientId, customerId: row.id },
    "4111111111111111",
  );
  // Odd dollars approve in the sandbox's TEST mode.
  await testApp.db.insert(recurringCharges).values(
    monthlyCharge({ clientId, customerId: row.id, codeId: code.id }, "31.00", {
      startDate: addDays(businessToday(), -60),
    }),
  );
  return row.id;
}

/** A customer with a card on file and nothing owed (Process CC finds nothing to charge). */
async function cardCustomer(): Promise<number> {
  const [row] = await testApp.db
    .insert(customers)
    .values({
      clientId,
      customerNo: 42,
      customerName: "Casey Card",
      firstName: "Casey",
      lastName: "Card",
      address1: "11 Elm St",
      city: "Austin",
      state: "TX",
      zip: "73301",
    })
    .returning({ id: customers.id });
  if (!row) throw new Error("customer not created");
  await storeCardOnFile(
    testApp.db,
    { url: sandbox.bp20postUrl, account: ACCOUNT },
    { clientId, customerId: row.id },
    "5454545454545454",
  );
  return row.id;
}

async function balanceOf(customerId: number): Promise<string | undefined> {
  const [row] = await testApp.db
    .select({ balance: customers.totalBalance })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row?.balance;
}

describe("autopay waits for the charge date", () => {
  it("queues the card run with a run dated today and charges on the due date, not before", async () => {
    const today = businessToday();
    const chargeDate = addDays(today, 10);
    await testApp.db
      .update(clients)
      .set({
        ...gatewayAccountFields(testApp.config.secretsKey, ACCOUNT),
        normalCycle: CYCLE,
        dateLastBilling: addDays(today, -30),
        termsMessage: "Net 10 days",
        dueDays: 10,
        address1: "1 Main St",
        city: "Austin",
        state: "TX",
        zip: "73301",
      })
      .where(eq(clients.id, clientId));
    const customerId = await autopayCustomer();

    const run = await runProductionCycle(admin, CYCLE, { run_date: today });
    expect(run.status).toBe("done");
    const autopayId = run.clients.find((part) => part.client_id === clientId)?.autopay_job_id;
    if (!autopayId) throw new Error(`no autopay run: ${JSON.stringify(run.clients)}`);
    expect(await balanceOf(customerId)).toBe("31.00");

    // Queued to start on the charge date in the provider's time zone. pg-boss waits by the database's
    // clock, so the wait it holds (start_after - the database's now()) is the app clock's wait to the
    // start of that day, whichever clock is shifted (faketime moves this process, not the server).
    const queued = await queryRows(
      testApp.db,
      sql`select state, extract(epoch from start_after - now())::float8 as wait_seconds from pgboss.job
          where name = 'card-run' and (data->>'runId')::int = ${autopayId}`,
      z.object({ state: dbText, wait_seconds: z.number() }),
    );
    expect(queued.map((job) => job.state)).toEqual(["created"]);
    const appWait =
      (startOfBusinessDay(chargeDate, currentClock().timeZone).getTime() - currentClock().now().getTime()) /
      1000;
    expect(Math.abs((queued[0]?.wait_seconds ?? 0) - appWait)).toBeLessThan(60);

    // Before the charge date: the job waits (created, its start in the future), so no worker may take
    // it, and nothing is charged.
    const before = cardRunSchema.parse((await staff.get(`/api/card-runs/${autopayId}/`)).body);
    expect(before).toMatchObject({ approved_count: 0, declined_count: 0, count: 0 });
    expect(before.job.status).not.toBe("succeeded");
    expect(sandbox.transactions().filter((t) => t.transType === "SALE")).toEqual([]);
    expect(await balanceOf(customerId)).toBe("31.00");

    // Issue 41 point 4: the autopay run waiting for its charge date does not block Process CC today.
    const other = await cardCustomer();
    const bulk = await staff.post("/api/customers/make-bulk-payments/", { ids: [other] });
    expect(bulk.status).toBe(202);
    const bulkId = cardRunStartedSchema.parse(bulk.body).job.id;
    await pollUntil(
      async () => cardRunSchema.parse((await staff.get(`/api/card-runs/${bulkId}/`)).body),
      (value: CardRun) => value.job.status === "succeeded" || value.job.status === "failed",
      60_000,
    );

    // The charge date comes: the business clock moves to it, and pg-boss (which reads the database's
    // clock, not ours) sees its wait over.
    setClock({ now: () => new Date(`${chargeDate}T17:00:00Z`) });
    // Due today, the autopay run blocks Process CC, and the refusal names it and its day.
    const blocked = await staff.post("/api/customers/make-bulk-payments/", { ids: [other] });
    expect(blocked).toMatchObject({
      status: 409,
      body: {
        detail: `A card run of this client is still in progress: autopay card run ${autopayId}, due ${chargeDate}. Wait for it to finish before starting another.`,
      },
    });
    await testApp.db.execute(
      sql`update pgboss.job set start_after = now()
          where name = 'card-run' and state = 'created' and (data->>'runId')::int = ${autopayId}`,
    );
    const charged = await pollUntil(
      async () => cardRunSchema.parse((await staff.get(`/api/card-runs/${autopayId}/`)).body),
      (value: CardRun) => value.job.status === "succeeded" || value.job.status === "failed",
      60_000,
    );
    expect(charged).toMatchObject({
      job: { status: "succeeded" },
      approved_count: 1,
      approved_total: "31.00",
    });
    expect(await balanceOf(customerId)).toBe("0.00");
    const payments = await queryRows(
      testApp.db,
      sql`select service_date::text as service_date, ledger_amount::text as amount from transactions
          where client_id = ${clientId} and customer_id = ${customerId} and ledger_amount < 0`,
      z.object({ service_date: dbDate, amount: dbDecimal }),
    );
    expect(payments).toEqual([{ service_date: chargeDate, amount: "-31.00" }]);
  });
});
