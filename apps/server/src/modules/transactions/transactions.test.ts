import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { addAmounts } from "@cyclebill/domain";
import { businessToday } from "../../clock.js";
import { codes, customers, invoices, routePlans, routes } from "../../db/tables.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import {
  createTenantFixture,
  startTestApp,
  type ApiClient,
  type TenantFixture,
  type TestApp,
} from "../../test-support/test-app.js";

let testApp: TestApp;
let fixture: TenantFixture;
let staff: ApiClient;
let code: { charge: number; payment: number; credit: number; system: number };
let customerIds: number[];

type Entry = Record<string, unknown> & {
  id: number;
  editable: boolean;
  voidable: boolean;
  reversible: boolean;
  void_deletable: boolean;
};

beforeAll(async () => {
  testApp = await startTestApp();
  fixture = await createTenantFixture(testApp);
  staff = testApp.client(fixture.a.staffToken);
  const rows = await testApp.db
    .insert(codes)
    .values([
      { clientId: fixture.a.clientId, code: 100, description: "Mowing", codeType: "charge" },
      { clientId: fixture.a.clientId, code: 200, description: "Payment", codeType: "payment" },
      { clientId: fixture.a.clientId, code: 300, description: "Credit", codeType: "adjust" },
      { clientId: fixture.a.clientId, code: -1, description: "Late fee", codeType: "charge" },
    ])
    .returning();
  code = { charge: rows[0]!.id, payment: rows[1]!.id, credit: rows[2]!.id, system: rows[3]!.id };
  const made = await testApp.db
    .insert(customers)
    .values(
      Array.from({ length: 6 }, (_, index) => ({
        clientId: fixture.a.clientId,
        customerNo: 300 + index,
        customerName: `Ledger ${index}`,
      })),
    )
    .returning({ id: customers.id });
  customerIds = made.map((row) => row.id);
});
// The books balance after every scenario.
afterEach(async () => expect(await ledgerMismatches(testApp.db)).toEqual([]));
afterAll(async () => testApp?.close());

async function balanceOf(customerId: number): Promise<string> {
  const customer = (await staff.get(`/api/customers/${customerId}/`)).body as { balance: string };
  return customer.balance;
}

async function enter(body: Record<string, unknown>): Promise<Entry> {
  const response = await staff.post("/api/transactions/", body);
  expect(response.status, response.text).toBe(201);
  return response.body as Entry;
}

describe("posting", () => {
  it("computes the amount from rate and quantity and moves the balance", async () => {
    const customer = customerIds[0]!;
    const entry = await enter({
      customer,
      code: code.charge,
      description: "Mow",
      rate: "33.333",
      quantity: "3",
    });
    expect(entry).toMatchObject({
      amount: "100.00",
      rate: "33.33300",
      ledger_amount: "100.00",
      transaction_status: "new",
      editable: true,
    });
    // The service date defaults to the provider's business date, from the one clock.
    expect(entry.serviceDate).toBe(businessToday());
    await enter({ customer, code: code.payment, rate: "40" });
    expect(await balanceOf(customer)).toBe("60.00");
  });

  it("refuses a duplicate within 24 hours unless forced", async () => {
    const customer = customerIds[1]!;
    const body = { customer, code: code.charge, rate: "10", serviceDate: "2026-11-01" };
    await enter(body);
    expect(await staff.post("/api/transactions/", body)).toMatchObject({
      status: 400,
      body: { non_field_errors: ["Duplicate Transaction Detected"] },
    });
    await enter({ ...body, force: true });
    expect(await balanceOf(customer)).toBe("20.00");
  });

  it("answers the spec's messages for bad input", async () => {
    const response = await staff.post("/api/transactions/", {
      customer: customerIds[0],
      code: code.charge,
      description: "x".repeat(61),
      rate: "-1",
      amount: "-5",
    });
    expect(response.body).toEqual({
      description: [
        "Transaction description is too long. Please make sure it is under 60 characters to appear on the bill correctly.",
      ],
      rate: ["The rate contains invalid characters. Please use only digits and decimals."],
      amount: [
        "Transaction amounts must always be a positive number. Please correct the amount to save transaction.",
      ],
    });
    expect(
      (await staff.post("/api/transactions/", { customer: 99_999_999, code: code.charge, rate: "1" })).status,
    ).toBe(400);
    expect(
      (
        await testApp
          .client(fixture.b.ownerToken)
          .post("/api/transactions/", { customer: customerIds[0], code: code.charge, rate: "1" })
      ).status,
    ).toBe(400);
  });

  it("refuses charges for customers marked for deletion, takes their payments", async () => {
    const customer = customerIds[2]!;
    await enter({ customer, code: code.charge, rate: "25" });
    await staff.post(`/api/customers/${customer}/delete-flag/`, { delete_flag: "D" });
    expect((await staff.post("/api/transactions/", { customer, code: code.charge, rate: "5" })).body).toEqual(
      {
        non_field_errors: ["Customer is marked for deletion and cannot accept charge transactions."],
      },
    );
    await enter({ customer, code: code.payment, rate: "25" });
    expect(
      ((await staff.get(`/api/customers/${customer}/`)).body as { archive_state: string }).archive_state,
    ).toBe("archived");
  });
});

describe("fixing mistakes", () => {
  it("edits and deletes new entries, re-balancing", async () => {
    const customer = customerIds[3]!;
    const entry = await enter({ customer, code: code.charge, rate: "50" });
    const edited = await staff.post(`/api/transactions/${entry.id}/edit_transaction/`, {
      customer,
      code: code.charge,
      rate: "45",
      quantity: "2",
      description: "Two visits",
    });
    expect(edited.body).toMatchObject({ amount: "90.00", description: "Two visits" });
    expect(await balanceOf(customer)).toBe("90.00");
    // Moving it to another customer moves the balance too.
    await staff.put(`/api/transactions/${entry.id}/`, {
      customer: customerIds[4],
      code: code.charge,
      rate: "45",
      quantity: "2",
    });
    expect(await balanceOf(customer)).toBe("0.00");
    expect(await balanceOf(customerIds[4]!)).toBe("90.00");
    expect((await staff.delete(`/api/transactions/${entry.id}/`)).status).toBe(204);
    expect(await balanceOf(customerIds[4]!)).toBe("0.00");
  });

  it("voids invoiced entries (the pair nets to zero) and can take the void back", async () => {
    const customer = customerIds[5]!;
    const entry = await enter({ customer, code: code.charge, rate: "70" });
    const invoice = await staff.post("/api/transactions/make_invoice/", { ids: [entry.id] });
    expect(invoice.status).toBe(201);
    const invoiceId = (invoice.body as { id: number }).id;
    const attached = (await staff.get(`/api/transactions/${entry.id}/`)).body as Entry;
    expect(attached).toMatchObject({
      transaction_status: "attached",
      invoice: invoiceId,
      voidable: true,
      editable: true,
    });
    const voiding = await staff.post(`/api/transactions/${entry.id}/void_transaction/`);
    expect(voiding.status).toBe(201);
    expect(voiding.body).toMatchObject({
      transaction_type: "voids_a_transaction",
      amount: "70.00",
      ledger_amount: "-70.00",
      void_deletable: true,
    });
    expect(await balanceOf(customer)).toBe("0.00");
    // The voided line stays on the invoice but no longer counts toward its total.
    expect((await staff.get(`/api/invoices/${invoiceId}/`)).body).toMatchObject({ total: "0.00" });
    expect((await staff.get(`/api/transactions/${entry.id}/`)).body as Entry).toMatchObject({
      voided: true,
      voidable: false,
      editable: false,
    });
    expect((await staff.post(`/api/transactions/${entry.id}/void_transaction/`)).status).toBe(400);
    const voidId = (voiding.body as Entry).id;
    expect((await staff.delete(`/api/transactions/${voidId}/delete_void_transaction/`)).status).toBe(204);
    expect(await balanceOf(customer)).toBe("70.00");
    expect((await staff.delete(`/api/transactions/${entry.id}/delete_void_transaction/`)).status).toBe(400);
  });

  it("reverses entries that can no longer be edited, and deletes the reversal", async () => {
    const customer = customerIds[0]!;
    const before = await balanceOf(customer);
    const entry = await enter({ customer, code: code.charge, rate: "12.34" });
    expect((await staff.post(`/api/transactions/${entry.id}/reversal/`)).status).toBe(400);
    const invoice = (await staff.post("/api/transactions/make_invoice/", { ids: [entry.id] })).body as {
      id: number;
    };
    // Closing is the invoices module's; here only its effect on the entry matters.
    await testApp.db.update(invoices).set({ invoiceStatus: "closed" }).where(eq(invoices.id, invoice.id));
    const closed = (await staff.get(`/api/transactions/${entry.id}/`)).body as Entry;
    expect(closed).toMatchObject({ editable: false, reversible: true });
    expect(
      (
        await staff.post(`/api/transactions/${entry.id}/edit_transaction/`, {
          customer,
          code: code.charge,
          rate: "1",
        })
      ).body,
    ).toEqual({
      non_field_errors: ["This transaction can no longer be edited. Void or reverse it instead."],
    });
    const reversal = (await staff.post(`/api/transactions/${entry.id}/reversal/`)).body as Entry;
    expect(reversal).toMatchObject({ reverses_transaction: entry.id, ledger_amount: "-12.34" });
    expect(await balanceOf(customer)).toBe(before);
    expect((await staff.post(`/api/transactions/${entry.id}/reversal/`)).status).toBe(400);
    expect((await staff.delete(`/api/transactions/${reversal.id}/delete_reversal/`)).status).toBe(204);
    expect((await staff.delete(`/api/transactions/${entry.id}/delete_reversal/`)).status).toBe(400);
  });

  it("posts straight onto an open invoice of the same customer, and nothing when the invoice refuses", async () => {
    const [customer, other] = (
      await testApp.db
        .insert(customers)
        .values([
          { clientId: fixture.a.clientId, customerNo: 400, customerName: "Invoice add row" },
          { clientId: fixture.a.clientId, customerNo: 401, customerName: "Someone else" },
        ])
        .returning({ id: customers.id })
    ).map((row) => row.id) as [number, number];
    const invoice = (await staff.post("/api/invoices/", { customer, invoice_date: "2026-10-05" })).body as {
      id: number;
    };
    const entry = await enter({ customer, code: code.charge, rate: "8.25", invoice: invoice.id });
    expect(entry).toMatchObject({ invoice: invoice.id, transaction_status: "attached", editable: true });
    const balance = await balanceOf(other);
    const foreign = await staff.post("/api/transactions/", {
      customer: other,
      code: code.charge,
      rate: "4",
      invoice: invoice.id,
    });
    expect(foreign.status).toBe(400);
    expect(await balanceOf(other)).toBe(balance);
    expect((await staff.post(`/api/invoices/${invoice.id}/close/`)).status).toBe(200);
    const closed = await staff.post("/api/transactions/", {
      customer,
      code: code.charge,
      rate: "9",
      invoice: invoice.id,
    });
    expect(closed.status).toBe(400);
    const missing = await staff.post("/api/transactions/", {
      customer,
      code: code.charge,
      rate: "9",
      invoice: 999999,
    });
    expect(missing.status).toBe(404);
    const onInvoice = (await staff.get("/api/transactions/", { invoice: invoice.id })).body as {
      count: number;
    };
    expect(onInvoice.count).toBe(1);
  });

  it("mass-updates selected entries all or nothing", async () => {
    const customer = customerIds[1]!;
    const first = await enter({ customer, code: code.charge, rate: "5", serviceDate: "2026-10-01" });
    const second = await enter({ customer, code: code.charge, rate: "6", serviceDate: "2026-10-02" });
    const updated = await staff.post("/api/transactions/mass_update/", {
      ids: [first.id, second.id],
      changes: { rate: "7.5", description: "Adjusted" },
    });
    expect(updated.status).toBe(200);
    expect(
      (updated.body as { results: Entry[] }).results.map((entry) => [entry.amount, entry.description]),
    ).toEqual([
      ["7.50", "Adjusted"],
      ["7.50", "Adjusted"],
    ]);
    const voided = await enter({ customer, code: code.charge, rate: "3", serviceDate: "2026-10-03" });
    await staff.post("/api/transactions/make_invoice/", { ids: [voided.id] });
    await staff.post(`/api/transactions/${voided.id}/void_transaction/`);
    const refused = await staff.post("/api/transactions/mass_update/", {
      ids: [first.id, voided.id],
      changes: { rate: "1" },
    });
    expect(refused.status).toBe(400);
    expect(((await staff.get(`/api/transactions/${first.id}/`)).body as Entry).amount).toBe("7.50");
    expect(
      (await staff.post("/api/transactions/mass_update/", { ids: [first.id], changes: {} })).status,
    ).toBe(400);
  });
});

describe("search, totals and downloads", () => {
  it("totals the whole ledger from the customers' tallies exactly as from the entries", async () => {
    // Every scenario above posted, edited, voided, reversed and deleted; a filter that matches
    // everything takes the entry-by-entry path, no filter takes the tallies.
    const whole = await staff.get("/api/transactions/get_total_amount/");
    const everything = await staff.get("/api/transactions/get_total_amount/", {
      serviceDate__gte: "1900-01-01",
    });
    expect(whole.body).toEqual(everything.body);
    expect((whole.body as { count: number }).count).toBeGreaterThan(5);
    const list = (await staff.get("/api/transactions/", { limit: 1 })).body as { count: number };
    expect(list.count).toBe((whole.body as { count: number }).count);
  });

  it("filters by the spec's keys and totals the filtered set", async () => {
    const customer = customerIds[4]!;
    await enter({ customer, code: code.charge, rate: "100", serviceDate: "2026-03-15" });
    await enter({ customer, code: code.payment, rate: "30", serviceDate: "2026-03-20" });
    const payments = (
      await staff.get("/api/transactions/", { customer__id: customer, code__code_type: "payment" })
    ).body as {
      count: number;
      results: Entry[];
    };
    expect(payments.results.map((entry) => entry.amount)).toEqual(["30.00"]);
    const march = await staff.get("/api/transactions/get_total_amount/", {
      customer__id: customer,
      serviceDate__gte: "2026-03-01",
      serviceDate__lte: "2026-03-31",
    });
    // Charges and payments apart: the payment lowers the balance, so it never adds to a total.
    expect(march.body).toEqual({
      totalAmount: "130.00",
      chargesAmount: "100.00",
      creditsAmount: "-30.00",
      netAmount: "70.00",
      count: 2,
    });
    // The unfiltered ledger (read from the customers' tallies) splits the same way.
    const whole = (await staff.get("/api/transactions/get_total_amount/")).body as Record<string, string>;
    expect(whole.chargesAmount).toMatch(/^\d+\.\d\d$/);
    expect(whole.creditsAmount).toMatch(/^(-\d+\.\d\d|0\.00)$/);
    expect(addAmounts(whole.chargesAmount!, whole.creditsAmount!)).toBe(whole.netAmount);
    expect((await staff.get("/api/transactions/", { ordering: "bogus" })).status).toBe(400);
    expect((await staff.get("/api/transactions/", { code__code_type: "gift" })).status).toBe(400);
    const csv = await fetch(
      `${testApp.baseUrl}/api/csv/customers/transactions/${fixture.a.clientId}/${customer}/0/0/0/0/2026-03-01/2026-03-31`,
      { headers: { authorization: `Bearer ${fixture.a.staffToken}` } },
    );
    expect(csv.headers.get("content-disposition")).toContain('filename="transactions.csv"');
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toContain("customer_no,customer_name");
    expect(lines).toHaveLength(3);
    expect(
      (await staff.get(`/api/csv/customers/transactions/${fixture.b.clientId}/0/0/0/0/0/0/0`)).status,
    ).toBe(404);
  });
});

describe("group and bulk batches", () => {
  it("posts to the standard members of a group in one batch, and to all customers in bulk", async () => {
    const [group] = await testApp.db
      .insert(routes)
      .values({ clientId: fixture.a.clientId, routeName: "Batch route" })
      .returning();
    await testApp.db.insert(routePlans).values([
      { clientId: fixture.a.clientId, routeId: group!.id, customerId: customerIds[0]!, stop: 0 },
      {
        clientId: fixture.a.clientId,
        routeId: group!.id,
        customerId: customerIds[1]!,
        stop: 1,
        billIndicatorFlag: "skip",
      },
      { clientId: fixture.a.clientId, routeId: group!.id, customerId: customerIds[3]!, stop: 2 },
    ]);
    const before = await balanceOf(customerIds[0]!);
    const batch = await staff.post("/api/transactionsroutes/", {
      route: group!.id,
      code: code.charge,
      amount: "15.25",
      service_date: "2026-11-20",
      transaction_type: "route",
    });
    expect(batch.status).toBe(201);
    expect(batch.body).toMatchObject({
      count: 2,
      total: "30.50",
      route_name: "Batch route",
      transaction_type: "route",
    });
    expect(await balanceOf(customerIds[0]!)).toBe(addAmounts(before, "15.25"));
    expect(
      (
        await staff.post("/api/transactionsroutes/", {
          route: group!.id,
          amount: "1",
          transaction_type: "route",
        })
      ).body,
    ).toEqual({
      code: ["You must fill in a group code."],
    });
    const bulk = await staff.post("/api/transactionsroutes/", {
      customers: [customerIds[3], customerIds[4]],
      code: code.credit,
      amount: "1",
      transaction_type: "bulk",
    });
    expect(bulk.body).toMatchObject({ count: 2, total: "2.00" });
    // A list longer than PostgreSQL's 65,535 parameters goes as one array; a customer named twice posts once.
    const large = await staff.post("/api/transactionsroutes/", {
      customers: [customerIds[3], ...Array.from({ length: 70_000 }, () => customerIds[4])],
      code: code.credit,
      amount: "1",
      transaction_type: "bulk",
    });
    expect(large.body).toMatchObject({ count: 2, total: "2.00" });
  });

  it("answers 404 to a batch naming another client's customer or no customer, and posts nothing", async () => {
    const [foreign] = await testApp.db
      .insert(customers)
      .values({ clientId: fixture.b.clientId, customerNo: 9301, customerName: "Other client's customer" })
      .returning({ id: customers.id });
    const before = await balanceOf(customerIds[3]!);
    const batch = (named: Record<string, unknown>) =>
      staff.post("/api/transactionsroutes/", {
        code: code.credit,
        amount: "1",
        transaction_type: "bulk",
        ...named,
      });
    const notFound = { status: 404, body: { detail: "Not found." } };
    expect(await batch({ customers: [customerIds[3], foreign!.id] })).toMatchObject(notFound);
    expect(await batch({ customers: [customerIds[3], 10_000_000] })).toMatchObject(notFound);
    expect(
      await batch({
        customers: [customerIds[3]],
        customer_amounts: [{ customer: foreign!.id, amount: "5" }],
      }),
    ).toMatchObject(notFound);
    expect(await balanceOf(customerIds[3]!)).toBe(before);
    const [untouched] = await testApp.db
      .select({ balance: customers.totalBalance })
      .from(customers)
      .where(eq(customers.id, foreign!.id));
    expect(Number(untouched?.balance)).toBe(0);
  });

  it("names every customer a group batch leaves out, archived ones included, with the reason", async () => {
    const [archived, marked, fine] = await testApp.db
      .insert(customers)
      .values([
        { clientId: fixture.a.clientId, customerNo: 901, customerName: "Archived Member" },
        { clientId: fixture.a.clientId, customerNo: 902, customerName: "Marked Member", deleteFlag: "D" },
        { clientId: fixture.a.clientId, customerNo: 903, customerName: "Plain Member" },
      ])
      .returning({ id: customers.id });
    // Archived through the API, as a clerk does (a new customer has a zero balance).
    expect((await staff.delete(`/api/customers/${archived!.id}/`)).status).toBe(204);
    const [group] = await testApp.db
      .insert(routes)
      .values({ clientId: fixture.a.clientId, routeName: "Refusing route" })
      .returning();
    await testApp.db.insert(routePlans).values(
      [archived!, marked!, fine!].map((member, stop) => ({
        clientId: fixture.a.clientId,
        routeId: group!.id,
        customerId: member.id,
        stop,
      })),
    );
    const batch = await staff.post("/api/transactionsroutes/", {
      route: group!.id,
      code: code.charge,
      amount: "5",
      service_date: "2026-11-20",
      transaction_type: "route",
    });
    expect(batch.status).toBe(201);
    expect(batch.body).toMatchObject({ count: 1, total: "5.00", skipped: 2 });
    expect((batch.body as { refused: unknown[] }).refused).toEqual([
      { customer: archived!.id, customer_no: 901, customer_name: "Archived Member", reason: "archived" },
      {
        customer: marked!.id,
        customer_no: 902,
        customer_name: "Marked Member",
        reason: "marked_for_deletion",
      },
    ]);
  });

  it("prices rows one by one when the screen sends per-customer amounts", async () => {
    const [group] = await testApp.db
      .insert(routes)
      .values({ clientId: fixture.a.clientId, routeName: "Priced route" })
      .returning();
    await testApp.db.insert(routePlans).values([
      { clientId: fixture.a.clientId, routeId: group!.id, customerId: customerIds[4]!, stop: 0 },
      { clientId: fixture.a.clientId, routeId: group!.id, customerId: customerIds[5]!, stop: 1 },
    ]);
    const before = [await balanceOf(customerIds[4]!), await balanceOf(customerIds[5]!)];
    const batch = await staff.post("/api/transactionsroutes/", {
      route: group!.id,
      customers: [customerIds[4], customerIds[5]],
      customer_amounts: [{ customer: customerIds[5], amount: "7.5", quantity: "3" }],
      code: code.charge,
      amount: "10.00",
      quantity: "2",
      unitofmeasure: 2,
      // A date no other test posts on, so the filter below finds only this batch's entry.
      service_date: "2021-03-15",
      transaction_type: "route",
    });
    expect(batch.status, batch.text).toBe(201);
    expect(batch.body).toMatchObject({ count: 2, total: "42.50", route_name: "Priced route" });
    expect(await balanceOf(customerIds[4]!)).toBe(addAmounts(before[0]!, "20.00"));
    expect(await balanceOf(customerIds[5]!)).toBe(addAmounts(before[1]!, "22.50"));
    const posted = (
      await staff.get(
        `/api/transactions/?customer__id=${customerIds[5]}&serviceDate__gte=2021-03-15&serviceDate__lte=2021-03-15`,
      )
    ).body as { count: number; results: Entry[] };
    expect(posted.count).toBe(1);
    expect(posted.results[0]).toMatchObject({ rate: "7.50000", amount: "22.50", unitofmeasure: 2 });
    expect(
      (
        await staff.post("/api/transactionsroutes/", {
          route: group!.id,
          code: code.charge,
          amount: "1",
          unitofmeasure: 999_999,
          transaction_type: "route",
        })
      ).status,
    ).toBe(400);
  });
});
