import { cardRunSchema, cardRunStartedSchema } from "@cyclebill/domain";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../../db/query-rows.js";
import { dbDecimal, dbText } from "../../db/row-schemas.js";
import { customers, paymentAttempts, recurringCharges, users } from "../../db/tables.js";
import { monthlyCharge } from "../../test-support/ledger-rows.js";
import { runProductionCycle } from "../../test-support/production-app.js";
import { paymentGatewayOf } from "./payment-gateway.js";
import { cardRunAttemptKey, runCardRunChunk } from "./run-card-run.js";
import { NOT_SENT_MESSAGE } from "./settle-attempts.js";
import { startBulkCardRun } from "./start-card-run.js";
import type { CardRunChunk } from "./start-card-run.js";
import {
  CYCLE,
  RUN_DATE,
  sandbox,
  testApp,
  staffA,
  admin,
  clientA,
  serviceCode,
  nextCard,
  addCustomer,
  waitForCardRun,
  useCardRunWorld,
} from "../../test-support/card-run-world.js";

// Process CC and autopay over HTTP, against the gateway sandbox in TEST mode (odd dollars approve,
// even decline), with the job engine working in this process as `npm start` does on PGlite.

useCardRunWorld();

const OPEN_DAY = "2025-03-10";

describe("autopay", () => {
  // A production run, then its autopay card run as jobs: past a minute on a loaded 2-core CI machine.
  it(
    "charges autopay customers their statement's amount due after a production run",
    { timeout: 180_000 },
    async () => {
      const due = await addCustomer(41, "Autopay", { card: true, autopay: true });
      const declined = await addCustomer(42, "Autopaid", { card: true, autopay: true });
      await addCustomer(43, "Nodue", { card: true, autopay: true });
      await testApp.db
        .insert(recurringCharges)
        .values([
          monthlyCharge({ clientId: clientA, customerId: due, codeId: serviceCode }, "31.00"),
          monthlyCharge({ clientId: clientA, customerId: declined, codeId: serviceCode }, "30.00"),
        ]);
      const run = await runProductionCycle(admin, CYCLE, { run_date: RUN_DATE });
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
      const [statement] = await queryRows(
        testApp.db,
        sql`select new_balance::text from statements where client_id = ${clientA} and customer_id = ${due}`,
        z.object({ new_balance: dbDecimal }),
      );
      expect(statement?.new_balance).toBe("31.00");
      const [after] = await testApp.db
        .select({ balance: customers.totalBalance })
        .from(customers)
        .where(eq(customers.id, due));
      expect(after?.balance).toBe("0.00");
      // The attempts say where they came from.
      const sources = await queryRows(
        testApp.db,
        sql`select distinct source from payment_attempts where client_id = ${clientA} and card_run_id = ${autopayId}`,
        z.object({ source: dbText }),
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
      message: NOT_SENT_MESSAGE,
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
