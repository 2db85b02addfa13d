import { and, asc, eq } from "drizzle-orm";
import { closedPeriodSchema, productionCyclePreviewSchema } from "@cyclebill/domain";
import { beforeAll, describe, expect, it } from "vitest";
import { clients, invoices, recurringCharges, statements, transactions } from "../../db/tables.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import { monthlyCharge } from "../../test-support/ledger-rows.js";
import {
  admin,
  clientId,
  fixture,
  runProductionCycle,
  testApp,
  useProductionApp,
} from "../../test-support/production-app.js";
import type { ApiClient } from "../../test-support/test-app.js";
import { createCodes } from "../../test-support/test-codes.js";
import { insertCustomer } from "../../test-support/test-customers.js";

// Issue 28, points 2, 7 and 9: closed periods, open invoices stay open, run dates (point 4 and a
// run's own day: first-run-billing.test.ts). Fixed dates in 2025 (a run may not be dated past today
// plus the look-ahead, so the past it is), and every customer and charge is dated so the test passes
// on any day.
const CYCLE = 5;

let staff: ApiClient;
let chargeCode: number;
let paymentCode: number;
let lawn: number; // Arrears, monthly
let openInvoice: number;
let closedInvoice: number;
const ids: Record<string, number> = {};

/** An entry as the transaction form posts or saves it. */
const entryBody = (customer: number | undefined, code: number, rate: string, serviceDate: string) => ({
  customer,
  code,
  rate,
  serviceDate,
});

useProductionApp({ chunkSize: 10, client: { normalCycle: CYCLE, dateLastBilling: "2025-09-05" } });

beforeAll(async () => {
  staff = testApp.client(fixture.a.staffToken);
  ({ charge: chargeCode, payment: paymentCode } = await createCodes(testApp.db, clientId, {
    charge: "charge",
    payment: "payment",
  }));
  for (const [no, name] of [
    [901, "arrears"],
    [902, "invoiced"],
  ] as const)
    ids[name] = await insertCustomer(testApp.db, {
      clientId,
      customerNo: no,
      customerName: name,
      lastName: name,
      openDate: "2025-01-01",
    });
  const [charge1] = await testApp.db
    .insert(recurringCharges)
    .values(
      monthlyCharge({ clientId, customerId: ids.arrears!, codeId: chargeCode }, "30.00", {
        description: "Lawn care",
        arrears: true,
        createdAt: new Date("2025-01-01T12:00:00Z"),
      }),
    )
    .returning({ id: recurringCharges.id });
  lawn = charge1!.id;
  // An empty invoice never closed, and a closed one with an entry.
  const [open, closed] = await testApp.db
    .insert(invoices)
    .values([
      { clientId, invoiceNum: 1, customerId: ids.invoiced!, invoiceDate: "2025-09-20" },
      {
        clientId,
        invoiceNum: 2,
        customerId: ids.invoiced!,
        invoiceDate: "2025-09-21",
        invoiceStatus: "closed",
        closedAt: new Date("2025-09-21T12:00:00Z"),
      },
    ])
    .returning({ id: invoices.id });
  openInvoice = open!.id;
  closedInvoice = closed!.id;
  const posted = await staff.post(
    "/api/transactions/",
    entryBody(ids.invoiced, chargeCode, "12.50", "2025-09-21"),
  );
  expect(posted.status).toBe(201);
  await testApp.db
    .update(transactions)
    .set({ invoiceId: closedInvoice })
    .where(eq(transactions.id, (posted.body as { id: number }).id));
});

const runCycle = (runDate: string) => runProductionCycle(admin, CYCLE, { run_date: runDate });

async function accountTotals(yearMonth: string): Promise<string> {
  const response = await staff.request("GET", `/api/pdf/account-totals/${clientId}/${yearMonth}`, {
    query: { format: "csv" },
  });
  expect(response.status).toBe(200);
  return response.text;
}

async function entryCount(): Promise<number> {
  return (await testApp.db.select().from(transactions).where(eq(transactions.clientId, clientId))).length;
}

const closedMessage = (date: string) => expect.stringContaining(`The books are closed through ${date}`);

describe("closed periods (issue 28 point 2)", () => {
  it("a run closes the books through its date; an Arrears charge is dated in the open period, naming its month", async () => {
    const run = await runCycle("2025-10-05");
    expect(run.status).toBe("done");
    const [client] = await testApp.db.select().from(clients).where(eq(clients.id, clientId));
    expect(client?.booksClosedThrough).toBe("2025-10-05");
    const lines = await testApp.db
      .select({ description: transactions.description, serviceDate: transactions.serviceDate })
      .from(transactions)
      .where(and(eq(transactions.clientId, clientId), eq(transactions.recurringChargeId, lawn)));
    // Before: "Lawn care" dated 2025-09-30, inside September's statemented month.
    expect(lines).toEqual([{ description: "Lawn care — September 2025", serviceDate: "2025-10-05" }]);
  });

  it("refuses any posting, edit or removal dated on or before the closed date, writing nothing", async () => {
    const before = await entryCount();
    const refused = await staff.post(
      "/api/transactions/",
      entryBody(ids.arrears, chargeCode, "5", "2025-10-05"),
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ service_date: [closedMessage("10/05/2025")] });
    const payment = await staff.post(
      "/api/transactions/",
      entryBody(ids.arrears, paymentCode, "5", "2025-09-01"),
    );
    expect(payment.status).toBe(400);
    // A batch with one closed date posts nothing at all.
    const bulk = await staff.post("/api/transactionsroutes/", {
      code: chargeCode,
      amount: "2.00",
      service_date: "2025-10-01",
      transaction_type: "bulk",
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(400);
    expect(await entryCount()).toBe(before);

    const [closedEntry] = await testApp.db
      .select({ id: transactions.id })
      .from(transactions)
      .where(and(eq(transactions.clientId, clientId), eq(transactions.customerId, ids.invoiced!)));
    const edit = await staff.put(
      `/api/transactions/${closedEntry!.id}/`,
      entryBody(ids.invoiced, chargeCode, "1", "2025-10-20"),
    );
    expect(edit.status).toBe(400); // billed on a statement, and dated in the closed period

    // The open period takes postings, and an open entry cannot be moved into the closed one.
    const open = await staff.post(
      "/api/transactions/",
      entryBody(ids.arrears, chargeCode, "5", "2025-10-06"),
    );
    expect(open.status).toBe(201);
    const moved = await staff.put(
      `/api/transactions/${(open.body as { id: number }).id}/`,
      entryBody(ids.arrears, chargeCode, "5", "2025-10-04"),
    );
    expect(moved.status).toBe(400);
    expect(await ledgerMismatches(testApp.db)).toEqual([]);
  });

  it("keeps a statemented month's Account Totals as they were through the next runs", async () => {
    const october = await accountTotals("2025-10");
    // Before: the November run dated October's Arrears charge 2025-10-31, into reported October.
    await runCycle("2025-11-05");
    expect(await accountTotals("2025-10")).toBe(october);
    const november = await accountTotals("2025-11");
    await runCycle("2025-12-05");
    expect(await accountTotals("2025-10")).toBe(october);
    expect(await accountTotals("2025-11")).toBe(november);
    const posted = await testApp.db
      .select({ description: transactions.description, serviceDate: transactions.serviceDate })
      .from(transactions)
      .where(and(eq(transactions.clientId, clientId), eq(transactions.recurringChargeId, lawn)))
      .orderBy(asc(transactions.id));
    expect(posted.map((row) => row.serviceDate)).toEqual(["2025-10-05", "2025-11-05", "2025-12-05"]);
  });

  it("lets a provider admin reopen the period with a reason and close it again, recorded", async () => {
    const path = `/api/clients/${clientId}/closed-period/`;
    for (const token of [fixture.a.ownerToken, fixture.a.staffToken]) {
      const user = testApp.client(token);
      expect((await user.get(path)).status).toBe(403);
      expect((await user.post(`${path}reopen/`, { reason: "x" })).status).toBe(403);
    }
    expect((await admin.post(`${path}reopen/`, { reason: " " })).status).toBe(400);
    // What Reopen would open, for its confirmation (issue 41 point 7): the December run's statements.
    const december = await testApp.db
      .select({ id: statements.id })
      .from(statements)
      .where(and(eq(statements.clientId, clientId), eq(statements.statementDate, "2025-12-05")));
    expect(december.length).toBeGreaterThan(0);
    expect(closedPeriodSchema.parse((await admin.get(path)).body).reopen).toEqual({
      closed_through: "2025-11-05",
      statements: december.length,
    });
    const reopened = await admin.post(`${path}reopen/`, { reason: "Missed meter reading" });
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
    expect(closedPeriodSchema.parse(reopened.body)).toMatchObject({
      books_closed_through: "2025-11-05",
      history: [
        expect.objectContaining({
          action: "reopen",
          closed_through_before: "2025-12-05",
          closed_through_after: "2025-11-05",
          reason: "Missed meter reading",
          user: expect.any(String),
        }),
        expect.objectContaining({ action: "run", closed_through_after: "2025-12-05" }),
        expect.objectContaining({ action: "run", closed_through_after: "2025-11-05" }),
        expect.objectContaining({ action: "run", closed_through_before: null }),
      ],
    });
    const fix = await staff.post("/api/transactions/", entryBody(ids.arrears, chargeCode, "7", "2025-12-01"));
    expect(fix.status).toBe(201);
    const closed = await admin.post(`${path}close/`, { reason: "Correction posted" });
    expect(closed.status).toBe(200);
    const afterClose = closedPeriodSchema.parse(closed.body);
    expect(afterClose.books_closed_through).toBe("2025-12-05");
    expect(afterClose.history[0]).toMatchObject({
      action: "close",
      closed_through_before: "2025-11-05",
      closed_through_after: "2025-12-05",
      reason: "Correction posted",
    });
    expect(
      (await staff.post("/api/transactions/", entryBody(ids.arrears, chargeCode, "7", "2025-12-01"))).status,
    ).toBe(400);
    expect((await admin.get(`/api/clients/999999/closed-period/`)).status).toBe(404);
  });
});

describe("open invoices stay open (issue 28 point 7)", () => {
  it("marks only closed invoices processed; open ones keep their status", async () => {
    const rows = await testApp.db
      .select({ id: invoices.id, status: invoices.invoiceStatus, statementId: invoices.statementId })
      .from(invoices)
      .where(eq(invoices.clientId, clientId))
      .orderBy(asc(invoices.id));
    // Before: the empty open invoice became "processed" with closed_at null.
    expect(rows).toEqual([
      { id: openInvoice, status: "open", statementId: null },
      { id: closedInvoice, status: "processed", statementId: expect.any(Number) },
    ]);
  });
});

describe("run dates (issue 28 point 9)", () => {
  it("refuses a date past today's look-ahead, before the last billing, or not a date", async () => {
    const far = await admin.post(`/api/dailyproduction/cycle/${CYCLE}/`, { run_date: "9999-12-15" });
    expect(far.status).toBe(400);
    expect(far.body).toEqual({ run_date: [expect.stringContaining("at most 7 days ahead of today")] });
    const back = await admin.post(`/api/dailyproduction/cycle/${CYCLE}/`, { run_date: "2025-12-01" });
    expect(back.status).toBe(400);
    expect(back.body).toEqual({
      run_date: ["The run date 12/01/2025 is before the client's last billing date 12/05/2025."],
    });
    expect(
      (await admin.post(`/api/dailyproduction/cycle/${CYCLE}/`, { run_date: "2025-02-30" })).status,
    ).toBe(400);
    const [client] = await testApp.db.select().from(clients).where(eq(clients.id, clientId));
    expect(client?.dateLastBilling).toBe("2025-12-05");
  });

  it("previews a date the run would refuse with the refusal (issue 41 point 7)", async () => {
    const preview = async (runDate: string) =>
      productionCyclePreviewSchema.parse(
        (await admin.get(`/api/dailyproduction/cycle/${CYCLE}/`, { run_date: runDate })).body,
      );
    const far = await admin.post(`/api/dailyproduction/cycle/${CYCLE}/`, { run_date: "9999-12-15" });
    expect((await preview("9999-12-15")).run_refusal).toBe((far.body as { run_date: string[] }).run_date[0]);
    expect((await preview("2025-12-01")).run_refusal).toBe(
      "The run date 12/01/2025 is before the client's last billing date 12/05/2025.",
    );
  });
});
