import {
  NO_GATEWAY_KEY_MESSAGE,
  NO_STORED_METHOD_MESSAGE,
  cardRunSchema,
  cardRunStartedSchema,
} from "@cyclebill/domain";
import { and, eq, isNotNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { customers, transactions } from "../../db/tables.js";
import { NOTHING_DUE_MESSAGE } from "./run-card-run.js";
import {
  sandbox,
  testApp,
  fixture,
  staffA,
  ownerB,
  admin,
  clientA,
  ids,
  waitForCardRun,
  listSchema,
  useCardRunWorld,
} from "../../test-support/card-run-world.js";

// Process CC and autopay over HTTP, against the gateway sandbox in TEST mode (odd dollars approve,
// even decline), with the job engine working in this process as `npm start` does on PGlite.

useCardRunWorld();

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
      unknown_count: 0,
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
      const slowId = cardRunStartedSchema.parse(slow.body).job.id;
      const twice = await staffA.post("/api/customers/make-bulk-payments/", { ids: [ids.Even] });
      // The refusal names the run and when it started (issue 41 point 4).
      expect(twice.status).toBe(409);
      expect((twice.body as { detail: string }).detail).toMatch(
        new RegExp(
          `^A card run of this client is still in progress: card run ${slowId} \\(Process CC\\), started \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\. Wait for it to finish before starting another\\.$`,
        ),
      );
      await waitForCardRun(staffA, slowId);
    } finally {
      sandbox.setFaults({ latencyMs: 0 });
    }
  });
});
