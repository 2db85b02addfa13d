import { startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import {
  CARD_RUN_IN_PROGRESS_MESSAGE,
  NO_GATEWAY_KEY_MESSAGE,
  NO_STORED_METHOD_MESSAGE,
  cardRunSchema,
  cardRunStartedSchema,
  creditCardCustomerSchema,
  luhnValid,
  pageSchema,
  productionRunSchema,
  type CardRun,
  type ProductionRun,
} from "@cyclebill/domain";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/query-rows.js";
import {
  clients,
  codes,
  customerPaymentMethods,
  customers,
  paymentAttempts,
  recurringCharges,
  transactions,
  users,
} from "../../db/tables.js";
import { pollUntil } from "../../test-support/poll-until.js";
import type { ApiClient, TenantFixture, TestApp } from "../../test-support/test-app.js";
import { startTenantApp } from "../../test-support/tenant-app.js";
import { postEntries } from "../ledger/post-entries.js";
import { sealSecret } from "../secrets/secret-box.js";
import { buildRequest, callGateway } from "./bluepay-client.js";
import { paymentGatewayOf } from "./payment-gateway.js";
import { NOTHING_DUE_MESSAGE, cardRunAttemptKey, runCardRunChunk } from "./run-card-run.js";
import { NOT_CHARGED_MESSAGE } from "./settle-attempts.js";
import { startBulkCardRun, type CardRunChunk } from "./start-card-run.js";
import { TEST_MAILING_ADDRESS } from "../../test-support/mailing-address.js";

// Process CC and autopay over HTTP, against the gateway sandbox in TEST mode (odd dollars approve,
// even decline), with the job engine working in this process as `npm start` does on PGlite.

const ACCOUNT = { accountId: "100000001616", secretKey: "CARDRUNSAPITESTSECRETKEY00000001" };
const CYCLE = 9;
const RUN_DATE = "2025-03-09";

let sandbox: Sandbox;
let testApp: TestApp;
let fixture: TenantFixture;
let staffA: ApiClient;
let ownerB: ApiClient;
let admin: ApiClient;
let clientA: number;
let serviceCode: number;
const ids: Record<string, number> = {};
let cardIndex = 0;

/** A distinct Luhn-valid card per customer: the sandbox scrubs duplicates by card and amount. */
function nextCard(): string {
  cardIndex += 1;
  const body = `4${String(cardIndex).padStart(14, "0")}`;
  for (let check = 0; check < 10; check++) if (luhnValid(`${body}${check}`)) return `${body}${check}`;
  throw new Error("no check digit");
}

/** A customer of client A, with a balance (charged through the ledger writer) and maybe a stored card. */
async function addCustomer(
  no: number,
  name: string,
  options: {
    balance?: string;
    card?: boolean;
    autopay?: boolean;
    serviceDate?: string;
    cardNumber?: string;
  } = {},
): Promise<number> {
  const [row] = await testApp.db
    .insert(customers)
    .values({
      clientId: clientA,
      customerNo: no,
      customerName: `${name} customer`,
      firstName: name,
      lastName: `Payer ${no}`,
      autopayFlag: options.autopay ?? false,
      ...TEST_MAILING_ADDRESS,
    })
    .returning({ id: customers.id });
  if (!row) throw new Error("customer not created");
  ids[name] = row.id;
  if (options.balance)
    await testApp.db.transaction((tx) =>
      postEntries(tx, { clientId: clientA }, [
        {
          customerId: row.id,
          codeId: serviceCode,
          codeType: "charge",
          description: "Service",
          rate: options.balance ?? "0",
          quantity: "1",
          serviceDate: options.serviceDate ?? "2025-02-20",
        },
      ]),
    );
  if (options.card) {
    // Stored as the staff form stores a card: a $0.00 AUTH whose TRANS_ID is the token.
    const answer = await callGateway(
      sandbox.bp20postUrl,
      buildRequest(ACCOUNT, {
        transType: "AUTH",
        mode: "TEST",
        amount: "0.00",
        account: { kind: "card", number: options.cardNumber ?? nextCard(), expire: "1299" },
        // A card shared with another customer is stored again on purpose.
        duplicateOverride: options.cardNumber !== undefined,
      }),
      { timeoutMs: 5_000 },
    );
    if (answer.status !== "approved") throw new Error(`AUTH refused: ${JSON.stringify(answer)}`);
    await testApp.db.insert(customerPaymentMethods).values({
      clientId: clientA,
      customerId: row.id,
      kind: "card",
      token: answer.transId,
      mask: answer.mask,
      cardType: answer.cardType,
      expiry: "1299",
    });
  }
  return row.id;
}

beforeAll(async () => {
  sandbox = await startSandbox({ accounts: [ACCOUNT], demoAccount: false });
  ({ testApp, fixture } = await startTenantApp({
    jobs: { chunkSize: 4 },
    bluepay: { url: sandbox.bp20postUrl, timeoutMs: 5_000 },
  }));
  clientA = fixture.a.clientId;
  staffA = testApp.client(fixture.a.staffToken);
  ownerB = testApp.client(fixture.b.ownerToken);
  admin = testApp.client(fixture.adminToken);
  await testApp.db
    .update(clients)
    .set({
      bluepayAccountId: ACCOUNT.accountId,
      bluepaySecretKeyEncrypted: sealSecret(testApp.config.secretsKey, ACCOUNT.secretKey),
      normalCycle: CYCLE,
      dateLastBilling: "2025-02-09",
    })
    .where(eq(clients.id, clientA));
  const [code] = await testApp.db
    .insert(codes)
    .values({ clientId: clientA, code: 100, description: "Service", codeType: "charge" })
    .returning({ id: codes.id });
  serviceCode = code?.id ?? 0;
  await addCustomer(31, "Odd", { balance: "21.00", card: true });
  await addCustomer(32, "Even", { balance: "22.50", card: true });
  await addCustomer(33, "Settled", { card: true });
  await addCustomer(34, "Cardless", { balance: "15.00" });
});

afterAll(async () => {
  await testApp?.close();
  await sandbox?.close();
});

async function waitForCardRun(client: ApiClient, id: number, query: Record<string, number> = {}) {
  return pollUntil(
    async () => {
      const response = await client.get(`/api/card-runs/${id}/`, query);
      expect(response.status).toBe(200);
      return cardRunSchema.parse(response.body);
    },
    (run: CardRun) => run.job.status === "succeeded" || run.job.status === "failed",
    60_000,
  );
}

const listSchema = pageSchema(creditCardCustomerSchema);

describe("Process CC", () => {
  it("lists the customers with a stored card and their balances, filtered, ordered and paged", async () => {
    const all = await staffA.get("/api/customers/credit-card-customers/");
    expect(all.status).toBe(200);
    const page = listSchema.parse(all.body);
    expect(page.count).toBe(3);
    expect(page.results.map((row) => [row.customer_no, row.total_balance])).toEqual([
      [31, "21.00"],
      [32, "22.50"],
      [33, "0.00"],
    ]);
    expect(page.results[0]).toMatchObject({
      id: ids.Odd,
      client_id: clientA,
      first_name: "Odd",
      autopay_flag: false,
      stored_method: {
        kind: "card",
        card_type: "VISA",
        expiry: "1299",
        mask: expect.stringMatching(/^x+\d{4}$/),
      },
    });

    const pending = listSchema.parse(
      (await staffA.get("/api/customers/credit-card-customers/", { has_pending_charges: "true" })).body,
    );
    expect(pending.results.map((row) => row.customer_no)).toEqual([31, 32]);
    const none = listSchema.parse(
      (await staffA.get("/api/customers/credit-card-customers/", { has_pending_charges: "false" })).body,
    );
    expect(none.results.map((row) => row.customer_no)).toEqual([33]);
    const found = listSchema.parse(
      (await staffA.get("/api/customers/credit-card-customers/", { query: "even" })).body,
    );
    expect(found.results.map((row) => row.customer_no)).toEqual([32]);
    const ordered = listSchema.parse(
      (await staffA.get("/api/customers/credit-card-customers/", { ordering: "-total_balance", limit: 2 }))
        .body,
    );
    expect(ordered).toMatchObject({ count: 3, results: [{ customer_no: 32 }, { customer_no: 31 }] });
    const second = listSchema.parse(
      (await staffA.get("/api/customers/credit-card-customers/", { limit: 1, page: 2 })).body,
    );
    expect(second.results.map((row) => row.customer_no)).toEqual([32]);

    const badOrdering = await staffA.get("/api/customers/credit-card-customers/", { ordering: "token" });
    expect(badOrdering.status).toBe(400);
    expect(badOrdering.body).toHaveProperty("ordering");
    // Another client's list holds none of these.
    expect(listSchema.parse((await ownerB.get("/api/customers/credit-card-customers/")).body).count).toBe(0);
  });

  it("charges the selection as a job: odd amounts approve, even decline, nothing due or no card is skipped", async () => {
    const started = await staffA.post("/api/customers/make-bulk-payments/", {
      ids: [ids.Odd, ids.Even, ids.Settled, ids.Cardless],
    });
    expect(started.status).toBe(202);
    const { job } = cardRunStartedSchema.parse(started.body);
    expect(job).toMatchObject({ kind: "card-run", client_id: clientA, total: 4 });

    const run = await waitForCardRun(staffA, job.id);
    expect(run).toMatchObject({
      source: "bulk",
      job: { status: "succeeded", total: 4, done: 4, failed: 1 },
      approved_count: 1,
      approved_total: "21.00",
      declined_count: 1,
      pending_count: 0,
      count: 4,
    });
    expect(run.job.result).toEqual({
      approved_count: 1,
      approved_total: "21.00",
      declined_count: 1,
      skipped_count: 2,
    });
    expect(run.paymentResults).toEqual([
      {
        customer_id: ids.Odd,
        customer_no: 31,
        name1: "Odd",
        name2: "Payer 31",
        amount_response: "21.00",
        message_response: "Approved Sale",
        approved: true,
        status: "approved",
        account_balance: "0.00",
      },
      expect.objectContaining({
        customer_id: ids.Even,
        amount_response: "22.50",
        message_response: "Declined",
        approved: false,
        status: "declined",
        account_balance: "22.50",
      }),
      expect.objectContaining({
        customer_id: ids.Settled,
        amount_response: "0.00",
        message_response: NOTHING_DUE_MESSAGE,
        status: "skipped",
      }),
      expect.objectContaining({
        customer_id: ids.Cardless,
        message_response: NO_STORED_METHOD_MESSAGE,
        status: "skipped",
        account_balance: "15.00",
      }),
    ]);
    const paged = cardRunSchema.parse(
      (await staffA.get(`/api/card-runs/${job.id}/`, { limit: 1, offset: 1 })).body,
    );
    expect(paged.count).toBe(4);
    expect(paged.paymentResults.map((result) => result.customer_id)).toEqual([ids.Even]);

    // One payment entry, carrying the gateway's TRANS_ID: the one approved sale of the sandbox's record.
    const sales = sandbox
      .transactions()
      .filter((transaction) => transaction.transType === "SALE")
      .sort((a, b) => a.amount.localeCompare(b.amount));
    expect(sales.map((sale) => [sale.amount, sale.status])).toEqual([
      ["21.00", "1"],
      ["22.50", "0"],
    ]);
    const posted = await testApp.db
      .select({ customerId: transactions.customerId, gatewayTransId: transactions.gatewayTransId })
      .from(transactions)
      .where(and(eq(transactions.clientId, clientA), isNotNull(transactions.gatewayTransId)));
    expect(posted).toEqual([{ customerId: ids.Odd, gatewayTransId: sales[0]?.transId }]);
    const [even] = await testApp.db
      .select({ message: customers.bluepayTransactionMessage })
      .from(customers)
      .where(eq(customers.id, ids.Even ?? 0));
    expect(even?.message).toBe("Declined");
  });

  it("keeps runs within their tenant and refuses what it cannot do", async () => {
    // Another client's customers are as unknown as missing ones, and so is its run.
    const foreign = await ownerB.post("/api/customers/make-bulk-payments/", { ids: [ids.Odd] });
    expect(foreign).toMatchObject({ status: 404, body: { detail: "Not found." } });
    const started = await staffA.post("/api/customers/make-bulk-payments/", { ids: [ids.Even] });
    expect(started.status).toBe(202);
    const runId = cardRunStartedSchema.parse(started.body).job.id;
    expect((await ownerB.get(`/api/card-runs/${runId}/`)).status).toBe(404);
    expect((await ownerB.get(`/api/card-runs/${runId}/`, { client_id: clientA })).status).toBe(404);
    const run = await waitForCardRun(admin, runId, { client_id: clientA });
    expect(run).toMatchObject({ declined_count: 1, count: 1 });
    // A job run of another kind is not a card run.
    const check = await testApp.client(fixture.a.ownerToken).post("/api/jobs/ledger-check/");
    expect((await staffA.get(`/api/card-runs/${(check.body as { id: number }).id}/`)).status).toBe(404);

    // Client B has no gateway key: nothing to start.
    const [bCustomer] = await testApp.db
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.clientId, fixture.b.clientId))
      .limit(1);
    const noKey = await ownerB.post("/api/customers/make-bulk-payments/", { ids: [bCustomer?.id] });
    expect(noKey).toMatchObject({ status: 400, body: { detail: NO_GATEWAY_KEY_MESSAGE } });
    const empty = await staffA.post("/api/customers/make-bulk-payments/", { ids: [] });
    expect(empty.status).toBe(400);
    expect(empty.body).toHaveProperty("ids");

    // One run at a time per client: a second start while one runs is refused.
    sandbox.setFaults({ latencyMs: 1_000 });
    try {
      const slow = await staffA.post("/api/customers/make-bulk-payments/", { ids: [ids.Even] });
      expect(slow.status).toBe(202);
      const twice = await staffA.post("/api/customers/make-bulk-payments/", { ids: [ids.Even] });
      expect(twice).toMatchObject({ status: 409, body: { detail: CARD_RUN_IN_PROGRESS_MESSAGE } });
      await waitForCardRun(staffA, cardRunStartedSchema.parse(slow.body).job.id);
    } finally {
      sandbox.setFaults({ latencyMs: 0 });
    }
  });
});

describe("autopay", () => {
  // A production run, then its autopay card run as jobs: past a minute on a loaded 2-core CI machine.
  it(
    "charges autopay customers their statement's amount due after a production run",
    { timeout: 180_000 },
    async () => {
      const due = await addCustomer(41, "Autopay", { card: true, autopay: true });
      const declined = await addCustomer(42, "Autopaid", { card: true, autopay: true });
      await addCustomer(43, "Nodue", { card: true, autopay: true });
      await testApp.db.insert(recurringCharges).values(
        [
          [due, "31.00"],
          [declined, "30.00"],
        ].map(([customerId, amount]) => ({
          clientId: clientA,
          customerId: Number(customerId),
          codeId: serviceCode,
          description: "Monthly service",
          rate: String(amount),
          quantity: "1",
          amount: String(amount),
          startMonth: 1,
          endMonth: 12,
        })),
      );
      const started = await admin.post(`/api/dailyproduction/cycle/${CYCLE}/`, { run_date: RUN_DATE });
      expect(started.status).toBe(202);
      const run = await pollUntil(
        async () =>
          productionRunSchema.parse(
            (await admin.get(`/api/productionruns/${productionRunSchema.parse(started.body).id}/`)).body,
          ),
        (value: ProductionRun) => value.status === "done" || value.status === "failed",
        60_000,
      );
      expect(run.status).toBe("done");
      const part = run.clients.find((item) => item.client_id === clientA);
      const autopayId = part?.autopay_job_id;
      if (!autopayId) throw new Error(`no autopay run: ${JSON.stringify(part)}`);

      const cards = await waitForCardRun(staffA, autopayId);
      expect(cards).toMatchObject({
        source: "autopay",
        job: { status: "succeeded", total: 2 },
        approved_count: 1,
        approved_total: "31.00",
        declined_count: 1,
        count: 2,
      });
      expect(
        cards.paymentResults.map((result) => [result.customer_id, result.amount_response, result.status]),
      ).toEqual([
        [due, "31.00", "approved"],
        [declined, "30.00", "declined"],
      ]);
      const [statement] = await queryRows<{ new_balance: string }>(
        testApp.db,
        sql`select new_balance::text from statements where client_id = ${clientA} and customer_id = ${due}`,
      );
      expect(statement?.new_balance).toBe("31.00");
      const [after] = await testApp.db
        .select({ balance: customers.totalBalance })
        .from(customers)
        .where(eq(customers.id, due));
      expect(after?.balance).toBe("0.00");
      // The attempts say where they came from.
      const sources = await queryRows<{ source: string }>(
        testApp.db,
        sql`select distinct source from payment_attempts where client_id = ${clientA} and card_run_id = ${autopayId}`,
      );
      expect(sources).toEqual([{ source: "autopay" }]);
      // Merchant-initiated charges of a card on file.
      const charged = sandbox.transactions().filter((t) => t.transType === "SALE" && t.amount === "31.00");
      expect(charged.map((t) => [t.storedIndicator, t.storedType, t.duplicateOverride])).toEqual([
        ["S", "M", false],
      ]);
    },
  );
});

// After the earlier tests' run (2025-03-09) closed the books: postings go after it.
const OPEN_DAY = "2025-03-10";

describe("two customers paying with one card", () => {
  it("overrides duplicate scrubbing only for another customer's same card and amount, marking the charges merchant-initiated", async () => {
    const shared = nextCard();
    const first = await addCustomer(61, "Parent", {
      balance: "17.00",
      card: true,
      cardNumber: shared,
      serviceDate: OPEN_DAY,
    });
    const second = await addCustomer(62, "Child", {
      balance: "17.00",
      card: true,
      cardNumber: shared,
      serviceDate: OPEN_DAY,
    });
    const alone = await addCustomer(63, "Alone", { balance: "19.00", card: true, serviceDate: OPEN_DAY });
    const before = sandbox.transactions().length;
    const started = await staffA.post("/api/customers/make-bulk-payments/", { ids: [first, second, alone] });
    expect(started.status).toBe(202);
    const run = await waitForCardRun(staffA, cardRunStartedSchema.parse(started.body).job.id);
    expect(run).toMatchObject({ approved_count: 3, approved_total: "53.00" });
    const sales = sandbox
      .transactions()
      .slice(before)
      .sort((a, b) => a.amount.localeCompare(b.amount));
    expect(
      sales.map((t) => [t.amount, t.status, t.storedIndicator, t.storedType, t.duplicateOverride]),
    ).toEqual([
      ["17.00", "1", "S", "M", true],
      ["17.00", "1", "S", "M", true],
      ["19.00", "1", "S", "M", false],
    ]);
  });
});

describe("an attempt the gateway never got", () => {
  it("is settled as not charged and the customer is charged under the run's next key", async () => {
    // After the run of RUN_DATE: the books are closed through it (issue 28's closed periods).
    const customerId = await addCustomer(51, "Retried", {
      balance: "13.00",
      card: true,
      serviceDate: "2025-03-10",
    });
    const [user] = await testApp.db.select().from(users).where(eq(users.clientId, clientA)).limit(1);
    if (!user) throw new Error("no user");
    const chunks: CardRunChunk[] = [];
    const { job } = await startBulkCardRun(
      testApp.db,
      { clientId: clientA, user: { ...user, username: user.email, isAdmin: false, clientId: clientA } },
      [customerId],
      (_tx, queued) => {
        chunks.push(...queued.map((chunk) => chunk.payload));
        return Promise.resolve();
      },
    );
    // What a worker killed after saving the attempt and before sending it leaves, once settled.
    await testApp.db.insert(paymentAttempts).values({
      clientId: clientA,
      customerId,
      idempotencyKey: cardRunAttemptKey(job.id, customerId),
      kind: "sale",
      source: "bulk",
      method: "card",
      usedStoredMethod: true,
      amount: "13.00",
      status: "error",
      message: NOT_CHARGED_MESSAGE,
      cardRunId: job.id,
    });
    const before = sandbox.transactions().length;
    for (const chunk of chunks) await runCardRunChunk(testApp.db, paymentGatewayOf(testApp.config), chunk);

    const run = cardRunSchema.parse((await staffA.get(`/api/card-runs/${job.id}/`)).body);
    expect(run).toMatchObject({ job: { status: "succeeded", done: 1 }, approved_count: 1, count: 1 });
    expect(run.paymentResults).toEqual([
      expect.objectContaining({ customer_id: customerId, amount_response: "13.00", status: "approved" }),
    ]);
    const sales = sandbox.transactions().slice(before);
    expect(sales.map((sale) => [sale.transType, sale.amount])).toEqual([["SALE", "13.00"]]);
    const keys = await testApp.db
      .select({ key: paymentAttempts.idempotencyKey, status: paymentAttempts.status })
      .from(paymentAttempts)
      .where(and(eq(paymentAttempts.clientId, clientA), eq(paymentAttempts.cardRunId, job.id)))
      .orderBy(paymentAttempts.id);
    expect(keys).toEqual([
      { key: `card-run:${job.id}:${customerId}`, status: "error" },
      { key: `card-run:${job.id}:${customerId}:2`, status: "approved" },
    ]);
  });
});
