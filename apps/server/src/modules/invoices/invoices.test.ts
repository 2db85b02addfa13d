import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { codes, customers, invoices, transactions } from "../../db/tables.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import {
  createTenantFixture,
  startTestApp,
  type ApiClient,
  type TenantFixture,
  type TestApp,
} from "../../test-support/test-app.js";
import { createStatement } from "../statements/create-statement.js";
import { pdfText } from "../../test-support/pdf-text.js";
import { postTransaction } from "../transactions/post-transaction.js";
import { attachTransactions, createInvoice } from "./create-invoice.js";
import { businessToday } from "../../clock.js";

let testApp: TestApp;
let fixture: TenantFixture;
let owner: ApiClient;
let staff: ApiClient;
let otherOwner: ApiClient;
let chargeCode: number;
let paymentCode: number;
let infoCode: number;
let otherChargeCode: number;

type Invoice = {
  id: number;
  invoice_num: number;
  invoice_status: "open" | "closed" | "processed";
  invoice_date: string;
  invoiceDate: string;
  customer: { id: number; customer_name: string; customer_no: number };
  customer_name: string;
  customer_no: number;
  client: number;
  statement: number | null;
  total: string;
  transaction_count: number;
  transactions?: { id: number; displayCode: number; amount: string; serviceDate: string; voided: boolean }[];
};
type Page = { count: number; results: Invoice[] };

const today = () => businessToday();
const tenantA = () => ({ clientId: fixture.a.clientId });

beforeAll(async () => {
  testApp = await startTestApp();
  fixture = await createTenantFixture(testApp);
  owner = testApp.client(fixture.a.ownerToken);
  staff = testApp.client(fixture.a.staffToken);
  otherOwner = testApp.client(fixture.b.ownerToken);
  const rows = await testApp.db
    .insert(codes)
    .values([
      { clientId: fixture.a.clientId, code: 100, description: "Service", codeType: "charge" },
      { clientId: fixture.a.clientId, code: 200, description: "Payment", codeType: "payment" },
      { clientId: fixture.a.clientId, code: 50, description: "Note", codeType: "info" },
      { clientId: fixture.b.clientId, code: 100, description: "Service", codeType: "charge" },
    ])
    .returning();
  [chargeCode, paymentCode, infoCode, otherChargeCode] = rows.map((row) => row.id) as [
    number,
    number,
    number,
    number,
  ];
});
afterEach(async () => {
  expect(await ledgerMismatches(testApp.db)).toEqual([]);
});
afterAll(async () => {
  await testApp?.close();
});

let customerCounter = 0;
async function newCustomer(clientId = fixture.a.clientId): Promise<number> {
  customerCounter += 1;
  const [row] = await testApp.db
    .insert(customers)
    .values({
      clientId,
      customerNo: 500 + customerCounter,
      customerName: `Invoice customer ${customerCounter}`,
      address1: "12 Elm St",
      city: "Austin",
      state: "TX",
      zip: "73301",
    })
    .returning();
  return (row as { id: number }).id;
}

function post(customerId: number, rate: string, options: { codeId?: number; serviceDate?: string } = {}) {
  return postTransaction(testApp.db, tenantA(), {
    customerId,
    codeId: options.codeId ?? chargeCode,
    description: "Weekly service",
    rate,
    serviceDate: options.serviceDate ?? "2024-03-04",
  });
}

async function add(body: Record<string, unknown>, api = owner): Promise<Invoice> {
  const response = await api.post("/api/invoices/", body);
  expect(response.status, response.text).toBe(201);
  return response.body as Invoice;
}

/** An invoice of a new customer holding the given charges. */
async function filledInvoice(...rates: string[]): Promise<{ invoice: Invoice; entryIds: number[] }> {
  const customerId = await newCustomer();
  const invoice = await add({ customer: customerId, invoice_date: "2024-03-10" });
  const entryIds: number[] = [];
  for (const rate of rates) entryIds.push((await post(customerId, rate)).id);
  await attachTransactions(testApp.db, tenantA(), invoice.id, entryIds);
  return { invoice, entryIds };
}

async function entry(id: number) {
  const [row] = await testApp.db.select().from(transactions).where(eq(transactions.id, id));
  return row;
}

async function balanceOf(customerId: number): Promise<string> {
  const [row] = await testApp.db
    .select({ balance: customers.totalBalance })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row?.balance ?? "";
}

describe("POST /api/invoices/ (add invoice)", () => {
  it("opens an empty invoice, numbered per client, and returns its id", async () => {
    const customerId = await newCustomer();
    const first = await add({ customer: customerId, invoice_date: "2024-03-01" });
    expect(first).toMatchObject({
      invoice_status: "open",
      invoice_date: "2024-03-01",
      invoiceDate: "2024-03-01",
      customer: { id: customerId, customer_name: expect.stringMatching(/^Invoice customer/) as unknown },
      customer_id: customerId,
      client: fixture.a.clientId,
      statement: null,
      total: "0.00",
      transaction_count: 0,
      transactions: [],
    });
    expect(typeof first.id).toBe("number");
    const second = await add({ customer: customerId }, staff);
    expect(second.invoice_num).toBe(first.invoice_num + 1);
    expect(second.invoice_date).toBe(today());
    // Numbers run per client: client b starts its own series.
    const otherCustomer = await newCustomer(fixture.b.clientId);
    const other = await add({ customer: otherCustomer }, otherOwner);
    expect(other.invoice_num).toBe(1);
    expect(other.client).toBe(fixture.b.clientId);
  });

  it("numbers concurrent adds without a gap or a clash", async () => {
    const customerId = await newCustomer();
    const made = await Promise.all(
      Array.from({ length: 8 }, () => owner.post("/api/invoices/", { customer: customerId })),
    );
    expect(made.map((response) => response.status)).toEqual(Array(8).fill(201));
    const numbers = made.map((response) => (response.body as Invoice).invoice_num).sort((x, y) => x - y);
    expect(new Set(numbers).size).toBe(8);
    expect((numbers.at(-1) ?? 0) - (numbers[0] ?? 0)).toBe(7);
  });

  it("refuses bad input in DRF's shape", async () => {
    expect((await owner.post("/api/invoices/", {})).body).toEqual({ customer: ["This field is required."] });
    expect((await owner.post("/api/invoices/", { customer: "abc" })).body).toEqual({
      customer: ["A valid integer is required."],
    });
    const customerId = await newCustomer();
    for (const [invoice_date, message] of [
      ["2024-02-30", "invoice_date: 2024-02-30 is not a real date (use YYYY-MM-DD)."],
      ["03/01/2024", 'invoice_date: "03/01/2024" is not a date (use YYYY-MM-DD).'],
      ["", 'invoice_date: "" is not a date (use YYYY-MM-DD).'],
    ]) {
      const response = await owner.post("/api/invoices/", { customer: customerId, invoice_date });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ invoice_date: [message] });
    }
    expect((await owner.post("/api/invoices/", { customer: 99_999_999 })).body).toEqual({
      customer: ["Invalid customer - object does not exist."],
    });
    // Another client's customer does not exist for this client.
    const otherCustomer = await newCustomer(fixture.b.clientId);
    expect((await owner.post("/api/invoices/", { customer: otherCustomer })).status).toBe(400);
    expect((await owner.post("/api/invoices/", [])).status).toBe(400);
  });
});

describe("GET /api/invoices/", () => {
  it("filters by customer and invoice date, orders newest first by default and pages", async () => {
    const customerId = await newCustomer();
    const march = await add({ customer: customerId, invoice_date: "2024-03-15" });
    const april = await add({ customer: customerId, invoice_date: "2024-04-15" });
    const may = await add({ customer: customerId, invoice_date: "2024-05-15" });
    const entryId = (await post(customerId, "40.00")).id;
    const paymentId = (await post(customerId, "15.25", { codeId: paymentCode })).id;
    await attachTransactions(testApp.db, tenantA(), april.id, [entryId, paymentId]);

    const all = await owner.get("/api/invoices/", { customer_id: customerId });
    expect(all.status).toBe(200);
    const page = all.body as Page;
    expect(page.count).toBe(3);
    expect(page.results.map((row) => row.id)).toEqual([may.id, april.id, march.id]);
    expect(page.results[1]).toMatchObject({ total: "24.75", transaction_count: 2 });
    expect(page.results[1]?.customer).toEqual({
      id: customerId,
      customer_name: april.customer_name,
      customer_no: april.customer_no,
    });

    const ranged = (
      await owner.get("/api/invoices/", {
        customer_id: customerId,
        start_date: "2024-04-01",
        end_date: "2024-04-30",
      })
    ).body as Page;
    expect(ranged.results.map((row) => row.id)).toEqual([april.id]);
    const from = (await owner.get("/api/invoices/", { customer_id: customerId, start_date: "2024-04-15" }))
      .body as Page;
    expect(from.results.map((row) => row.id)).toEqual([may.id, april.id]);

    const ascending = (
      await owner.get("/api/invoices/", { customer_id: customerId, ordering: "invoice_num", limit: 2 })
    ).body as Page;
    expect(ascending).toMatchObject({ count: 3 });
    expect(ascending.results.map((row) => row.id)).toEqual([march.id, april.id]);
    const second = (
      await owner.get("/api/invoices/", {
        customer_id: customerId,
        ordering: "invoice_num",
        limit: 2,
        page: 2,
      })
    ).body as Page;
    expect(second.results.map((row) => row.id)).toEqual([may.id]);
  });

  it("answers 400 for unknown ordering and malformed filters", async () => {
    expect((await owner.get("/api/invoices/", { ordering: "secret" })).body).toEqual({
      ordering: [expect.stringContaining("Unknown ordering field: secret") as unknown],
    });
    expect((await owner.get("/api/invoices/", { start_date: "yesterday" })).status).toBe(400);
    expect((await owner.get("/api/invoices/", { customer_id: "x" })).body).toEqual({
      customer_id: ["A valid integer is required."],
    });
  });

  it("keeps each client's invoices to itself", async () => {
    const customerId = await newCustomer();
    const invoice = await add({ customer: customerId });
    const theirs = (await otherOwner.get("/api/invoices/", { limit: 5000 })).body as Page;
    expect(theirs.results.map((row) => row.id)).not.toContain(invoice.id);
    expect((await otherOwner.get("/api/invoices/", { client_id: fixture.a.clientId })).status).toBe(404);
    const admin = testApp.client(fixture.adminToken);
    expect((await admin.get("/api/invoices/")).body).toEqual({
      client_id: ["Admins must name a client with client_id."],
    });
    const listed = (await admin.get("/api/invoices/", { client_id: fixture.a.clientId, limit: 5000 }))
      .body as Page;
    expect(listed.results.map((row) => row.id)).toContain(invoice.id);
  });
});

describe("GET and PUT /api/invoices/{id}/", () => {
  it("shows the invoice with its transactions", async () => {
    const { invoice, entryIds } = await filledInvoice("10.00", "2.50");
    const response = await owner.get(`/api/invoices/${invoice.id}/`);
    expect(response.status).toBe(200);
    const body = response.body as Invoice;
    expect(body).toMatchObject({ total: "12.50", transaction_count: 2 });
    expect(body.transactions).toEqual([
      expect.objectContaining({
        id: entryIds[0],
        code: chargeCode,
        displayCode: 100,
        description: "Weekly service",
        quantity: "1",
        amount: "10.00",
        serviceDate: "2024-03-04",
        voided: false,
        transaction_status: "attached",
        invoice: invoice.id,
      }),
      expect.objectContaining({ id: entryIds[1], amount: "2.50" }),
    ]);
  });

  it("changes the date only while open, and the customer only while empty", async () => {
    const customerId = await newCustomer();
    const invoice = await add({ customer: customerId, invoice_date: "2024-03-01" });
    const moved = await owner.put(`/api/invoices/${invoice.id}/`, { invoice_date: "2024-03-09" });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ invoice_date: "2024-03-09", invoice_status: "open" });

    const otherCustomer = await newCustomer();
    const switched = await owner.put(`/api/invoices/${invoice.id}/`, {
      customer: otherCustomer,
      invoice_date: "2024-03-09",
    });
    expect(switched.body).toMatchObject({ customer: { id: otherCustomer } });
    await attachTransactions(testApp.db, tenantA(), invoice.id, [(await post(otherCustomer, "5")).id]);
    expect(
      (await owner.put(`/api/invoices/${invoice.id}/`, { customer: customerId, invoice_date: "2024-03-09" }))
        .body,
    ).toEqual({
      customer: ["The customer of an invoice that holds transactions cannot be changed."],
    });
    expect((await owner.put(`/api/invoices/${invoice.id}/`, { invoice_date: "2024-13-01" })).status).toBe(
      400,
    );
    expect((await owner.put(`/api/invoices/${invoice.id}/`, {})).body).toEqual({
      invoice_date: ["This field is required."],
    });

    expect((await owner.post(`/api/invoices/${invoice.id}/close/`)).status).toBe(200);
    const closed = await owner.put(`/api/invoices/${invoice.id}/`, { invoice_date: "2024-03-20" });
    expect(closed.status).toBe(400);
    expect(closed.body).toEqual({ non_field_errors: ["Only open invoices can be changed."] });
    expect(((await owner.get(`/api/invoices/${invoice.id}/`)).body as Invoice).invoice_date).toBe(
      "2024-03-09",
    );
  });

  it("answers 404 for another client's invoice on every path", async () => {
    const { invoice } = await filledInvoice("7.00");
    const paths = [
      ["GET", `/api/invoices/${invoice.id}/`],
      ["PUT", `/api/invoices/${invoice.id}/`],
      ["DELETE", `/api/invoices/${invoice.id}/`],
      ["POST", `/api/invoices/${invoice.id}/close/`],
      ["POST", `/api/invoices/${invoice.id}/reopen/`],
      ["POST", `/api/invoices/${invoice.id}/separateTransactionsFromInvoice/`],
      ["GET", `/api/invoices/${invoice.id}/pdf/`],
    ] as const;
    for (const api of [otherOwner, testApp.client(fixture.b.staffToken)]) {
      for (const [method, path] of paths) {
        const body = method === "PUT" ? { invoice_date: "2024-01-01" } : undefined;
        const response = await api.request(method, path, { body });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.body).toEqual({ detail: "Not found." });
      }
    }
    expect((await owner.get("/api/invoices/99999999/")).status).toBe(404);
    expect((await testApp.client().get(`/api/invoices/${invoice.id}/`)).status).toBe(401);
    const after = (await owner.get(`/api/invoices/${invoice.id}/`)).body as Invoice;
    expect(after).toMatchObject({ invoice_status: "open", total: "7.00", transaction_count: 1 });
  });
});

describe("invoice state machine", () => {
  it("closes an open invoice and reopens a closed one", async () => {
    const { invoice } = await filledInvoice("20.00");
    const closed = await staff.post(`/api/invoices/${invoice.id}/close/`);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ invoice_status: "closed", total: "20.00" });
    expect((closed.body as { closed_at: string | null }).closed_at).not.toBeNull();
    expect((await owner.post(`/api/invoices/${invoice.id}/close/`)).body).toEqual({
      non_field_errors: ["Only open invoices can be closed."],
    });
    expect((await owner.post(`/api/invoices/${invoice.id}/separateTransactionsFromInvoice/`)).body).toEqual({
      non_field_errors: ["Only open invoices can be changed."],
    });
    const reopened = await owner.post(`/api/invoices/${invoice.id}/reopen/`);
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ invoice_status: "open", closed_at: null });
    expect((await owner.post(`/api/invoices/${invoice.id}/reopen/`)).body).toEqual({
      non_field_errors: ["Only closed invoices can be reopened."],
    });
  });

  it("keeps a processed invoice as it was sent", async () => {
    const { invoice } = await filledInvoice("30.00");
    expect((await owner.post(`/api/invoices/${invoice.id}/close/`)).status).toBe(200);
    const statement = await createStatement(testApp.db, tenantA(), {
      customerId: invoice.customer.id,
      statementDate: "2024-03-31",
    });
    const processed = (await owner.get(`/api/invoices/${invoice.id}/`)).body as Invoice;
    expect(processed).toMatchObject({ invoice_status: "processed", statement: statement.id });
    const refusals: [string, string | undefined, string][] = [
      [
        "reopen",
        undefined,
        "Processed invoices cannot be reopened. They have already been sent to the customer.",
      ],
      ["close", undefined, "Only open invoices can be closed."],
      ["separateTransactionsFromInvoice", undefined, "Only open invoices can be changed."],
    ];
    for (const [action, , message] of refusals) {
      const response = await owner.post(`/api/invoices/${invoice.id}/${action}/`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ non_field_errors: [message] });
    }
    expect((await owner.put(`/api/invoices/${invoice.id}/`, { invoice_date: "2024-04-01" })).status).toBe(
      400,
    );
    const deleted = await owner.delete(`/api/invoices/${invoice.id}/`);
    expect(deleted.status).toBe(400);
    expect(deleted.body).toEqual({
      non_field_errors: [
        "Processed invoices cannot be deleted. They have already been sent to the customer.",
      ],
    });
    expect(((await owner.get(`/api/invoices/${invoice.id}/`)).body as Invoice).transaction_count).toBe(1);
  });
});

describe("attaching and separating transactions", () => {
  it("attaches all or nothing: only the customer's own, unvoided entries on no other invoice", async () => {
    const customerId = await newCustomer();
    const invoice = await createInvoice(testApp.db, tenantA(), { customerId, invoiceDate: "2024-03-10" });
    const mine = await post(customerId, "11.00");
    const stranger = await post(await newCustomer(), "12.00");
    const message = {
      non_field_errors: [
        "Only the invoice customer's transactions that are not voided and not on another invoice can be added.",
      ],
    };
    await expect(
      attachTransactions(testApp.db, tenantA(), invoice.id, [mine.id, stranger.id]),
    ).rejects.toMatchObject({ status: 400, body: message });
    expect(await entry(mine.id)).toMatchObject({ invoiceId: null, transactionStatus: "new" });

    const elsewhere = await createInvoice(testApp.db, tenantA(), { customerId, invoiceDate: "2024-03-11" });
    const taken = await post(customerId, "13.00");
    await attachTransactions(testApp.db, tenantA(), elsewhere.id, [taken.id]);
    await expect(
      attachTransactions(testApp.db, tenantA(), invoice.id, [mine.id, taken.id]),
    ).rejects.toMatchObject({
      status: 400,
    });
    const voided = await post(customerId, "14.00");
    await testApp.db.update(transactions).set({ voided: true }).where(eq(transactions.id, voided.id));
    await expect(attachTransactions(testApp.db, tenantA(), invoice.id, [voided.id])).rejects.toMatchObject({
      status: 400,
    });
    // Another client's entry is as unknown as a missing one.
    const foreign = await postTransaction(
      testApp.db,
      { clientId: fixture.b.clientId },
      {
        customerId: await newCustomer(fixture.b.clientId),
        codeId: otherChargeCode,
        description: "x",
        rate: "1",
      },
    );
    await expect(attachTransactions(testApp.db, tenantA(), invoice.id, [foreign.id])).rejects.toMatchObject({
      status: 400,
    });
    await expect(attachTransactions(testApp.db, tenantA(), 99_999_999, [mine.id])).rejects.toMatchObject({
      status: 404,
    });

    await attachTransactions(testApp.db, tenantA(), invoice.id, [mine.id, mine.id]);
    expect(await entry(mine.id)).toMatchObject({ invoiceId: invoice.id, transactionStatus: "attached" });
    await testApp.db
      .update(invoices)
      .set({ invoiceStatus: "closed" })
      .where(and(eq(invoices.clientId, fixture.a.clientId), eq(invoices.id, invoice.id)));
    const late = await post(customerId, "15.00");
    await expect(attachTransactions(testApp.db, tenantA(), invoice.id, [late.id])).rejects.toMatchObject({
      status: 400,
      body: { non_field_errors: ["Only open invoices can be changed."] },
    });
  });

  it("separates every transaction from an open invoice without touching the ledger", async () => {
    const { invoice, entryIds } = await filledInvoice("8.00", "9.00");
    const before = await balanceOf(invoice.customer.id);
    const response = await owner.post(`/api/invoices/${invoice.id}/separateTransactionsFromInvoice/`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ invoice_status: "open", total: "0.00", transaction_count: 0 });
    for (const id of entryIds) {
      expect(await entry(id)).toMatchObject({
        invoiceId: null,
        transactionStatus: "new",
        amount: expect.any(String) as unknown,
      });
    }
    expect(await balanceOf(invoice.customer.id)).toBe(before);
    expect(before).toBe("17.00");
  });
});

describe("POST /api/invoices/bulk-add-invoices/", () => {
  it("makes one invoice per customer with new, uninvoiced transactions", async () => {
    const withEntries = await newCustomer();
    const alsoWithEntries = await newCustomer();
    const withoutEntries = await newCustomer();
    const first = await post(withEntries, "10.00");
    const second = await post(withEntries, "5.00", { codeId: paymentCode });
    const third = await post(alsoWithEntries, "3.00");
    const note = await post(alsoWithEntries, "0", { codeId: infoCode });
    // Already on an invoice, or voided: left alone.
    const { entryIds: invoiced } = await filledInvoice("1.00");
    const voided = await post(withEntries, "99.00");
    await testApp.db.update(transactions).set({ voided: true }).where(eq(transactions.id, voided.id));

    const response = await owner.post("/api/invoices/bulk-add-invoices/", {
      customer_ids: [withEntries, alsoWithEntries, withoutEntries],
      invoice_date: "2024-03-31",
    });
    expect(response.status, response.text).toBe(201);
    const page = response.body as Page;
    expect(page.count).toBe(2);
    const byCustomer = new Map(page.results.map((row) => [row.customer.id, row]));
    expect(byCustomer.get(withEntries)).toMatchObject({
      invoice_status: "open",
      invoice_date: "2024-03-31",
      total: "5.00",
      transaction_count: 2,
    });
    expect(byCustomer.get(alsoWithEntries)).toMatchObject({ total: "3.00", transaction_count: 2 });
    expect(byCustomer.has(withoutEntries)).toBe(false);
    for (const id of [first.id, second.id]) {
      expect(await entry(id)).toMatchObject({
        invoiceId: byCustomer.get(withEntries)?.id,
        transactionStatus: "attached",
      });
    }
    expect(await entry(third.id)).toMatchObject({ invoiceId: byCustomer.get(alsoWithEntries)?.id });
    expect(await entry(note.id)).toMatchObject({ invoiceId: byCustomer.get(alsoWithEntries)?.id });
    expect(await entry(voided.id)).toMatchObject({ invoiceId: null });
    expect((await entry(invoiced[0] as number))?.invoiceId).not.toBe(byCustomer.get(withEntries)?.id);

    // Nothing is left to invoice for them now.
    const again = await owner.post("/api/invoices/bulk-add-invoices/", {
      customer_ids: [withEntries, alsoWithEntries],
    });
    expect(again.body).toEqual({ count: 0, results: [] });
  });

  it("covers every customer of the client when none are named, and dates today by default", async () => {
    const customerId = await newCustomer();
    const entryId = (await post(customerId, "4.00")).id;
    const foreignCustomer = await newCustomer(fixture.b.clientId);
    const foreign = await postTransaction(
      testApp.db,
      { clientId: fixture.b.clientId },
      { customerId: foreignCustomer, codeId: otherChargeCode, description: "b", rate: "6" },
    );
    const response = await staff.post("/api/invoices/bulk-add-invoices/", {});
    expect(response.status).toBe(201);
    const page = response.body as Page;
    const mine = page.results.find((row) => row.customer.id === customerId);
    expect(mine).toMatchObject({ invoice_date: today(), total: "4.00" });
    expect(page.results.every((row) => row.client === fixture.a.clientId)).toBe(true);
    expect(await entry(entryId)).toMatchObject({ invoiceId: mine?.id });
    expect(await entry(foreign.id)).toMatchObject({ invoiceId: null });
  });

  it("puts each entry on one invoice when runs overlap", async () => {
    const customerId = await newCustomer();
    const entryIds = [(await post(customerId, "1.00")).id, (await post(customerId, "2.00")).id];
    const runs = await Promise.all(
      [owner, staff, owner].map((api) =>
        api.post("/api/invoices/bulk-add-invoices/", { customer_ids: [customerId] }),
      ),
    );
    expect(runs.map((run) => run.status)).toEqual([201, 201, 201]);
    expect(runs.map((run) => (run.body as Page).count).sort()).toEqual([0, 0, 1]);
    const made = runs.flatMap((run) => (run.body as Page).results);
    expect(made[0]).toMatchObject({ total: "3.00", transaction_count: 2 });
    for (const id of entryIds) expect(await entry(id)).toMatchObject({ invoiceId: made[0]?.id });
  });

  it("refuses unknown customers, all or nothing", async () => {
    const customerId = await newCustomer();
    const entryId = (await post(customerId, "4.00")).id;
    const foreignCustomer = await newCustomer(fixture.b.clientId);
    const response = await owner.post("/api/invoices/bulk-add-invoices/", {
      customer_ids: [customerId, foreignCustomer],
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      customer_ids: [`Invalid pk "${foreignCustomer}" - object does not exist.`],
    });
    expect(await entry(entryId)).toMatchObject({ invoiceId: null });
    expect((await owner.post("/api/invoices/bulk-add-invoices/", { customer_ids: "1" })).status).toBe(400);
    expect((await owner.post("/api/invoices/bulk-add-invoices/", { customer_ids: [] })).body).toEqual({
      count: 0,
      results: [],
    });
  });
});

describe("DELETE /api/invoices/{id}/", () => {
  it("deletes open and closed invoices, detaching their transactions and keeping the ledger", async () => {
    const { invoice, entryIds } = await filledInvoice("25.00", "5.00");
    const before = await balanceOf(invoice.customer.id);
    const response = await staff.delete(`/api/invoices/${invoice.id}/`);
    expect(response.status).toBe(204);
    expect((await owner.get(`/api/invoices/${invoice.id}/`)).status).toBe(404);
    for (const id of entryIds)
      expect(await entry(id)).toMatchObject({ invoiceId: null, transactionStatus: "new" });
    expect(await balanceOf(invoice.customer.id)).toBe(before);

    const { invoice: closed } = await filledInvoice("3.00");
    await owner.post(`/api/invoices/${closed.id}/close/`);
    expect((await owner.delete(`/api/invoices/${closed.id}/`, { document: "invoice" })).status).toBe(204);
    expect((await owner.delete(`/api/invoices/${closed.id}/`)).status).toBe(404);
  });

  it("never deletes a statement from here", async () => {
    const customerId = await newCustomer();
    await post(customerId, "12.00");
    const statement = await createStatement(testApp.db, tenantA(), {
      customerId,
      statementDate: "2024-03-31",
    });
    const refused = await owner.delete(`/api/invoices/${statement.id}/`, { document: "statement" });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ non_field_errors: ["Only invoices can be deleted from here."] });
    expect((await owner.get(`/api/statements/${statement.id}/`)).status).toBe(200);
    // Another client's statement, or none at all, is simply not found.
    expect(
      (await otherOwner.delete(`/api/invoices/${statement.id}/`, { document: "statement" })).status,
    ).toBe(404);
    expect((await owner.delete("/api/invoices/99999999/", { document: "statement" })).status).toBe(404);
    expect((await owner.delete(`/api/invoices/${statement.id}/`, { document: "bill" })).status).toBe(400);
  });

  it("refuses a statement id without the document key when no invoice has that id", async () => {
    const customerId = await newCustomer();
    await post(customerId, "1.00");
    // Statements until one has an id no invoice of this client has.
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const statement = await createStatement(testApp.db, tenantA(), {
        customerId,
        statementDate: "2024-04-30",
      });
      const [invoice] = await testApp.db
        .select({ id: invoices.id })
        .from(invoices)
        .where(and(eq(invoices.clientId, fixture.a.clientId), eq(invoices.id, statement.id)));
      if (invoice) continue;
      expect((await owner.delete(`/api/invoices/${statement.id}/`)).body).toEqual({
        non_field_errors: ["Only invoices can be deleted from here."],
      });
      return;
    }
    throw new Error("no statement id free of invoices");
  });
});

describe("GET /api/invoices/{id}/pdf/", () => {
  it("downloads a real PDF named with the invoice number", async () => {
    const { invoice } = await filledInvoice("45.00", "12.345");
    await post(invoice.customer.id, "20", { codeId: paymentCode });
    expect((await owner.post(`/api/invoices/${invoice.id}/close/`, {})).status).toBe(200);
    const response = await fetch(`${testApp.baseUrl}/api/invoices/${invoice.id}/pdf/`, {
      headers: { authorization: `Bearer ${fixture.a.staffToken}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toContain(
      `filename="Invoice ${invoice.invoice_num}.pdf"`,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(bytes.length).toBeGreaterThan(1500);
  });

  it("prints no internal status, even on a closed invoice", async () => {
    const { invoice } = await filledInvoice("9.00");
    expect((await owner.post(`/api/invoices/${invoice.id}/close/`, {})).status).toBe(200);
    const response = await fetch(`${testApp.baseUrl}/api/invoices/${invoice.id}/pdf/`, {
      headers: { authorization: `Bearer ${fixture.a.ownerToken}` },
    });
    const text = await pdfText(Buffer.from(await response.arrayBuffer()));
    expect(text).toContain(`Invoice No.`);
    expect(text).not.toMatch(/Status|Closed/);
  });

  it("prints the taxable charges line by the one tax rule the Status tab uses", async () => {
    const [materials] = await testApp.db
      .insert(codes)
      .values({
        clientId: fixture.a.clientId,
        code: 120,
        description: "Materials",
        codeType: "charge",
        taxable: true,
      })
      .returning();
    const pdfOf = async (invoiceId: number) =>
      pdfText(
        Buffer.from(
          await (
            await fetch(`${testApp.baseUrl}/api/invoices/${invoiceId}/pdf/`, {
              headers: { authorization: `Bearer ${fixture.a.ownerToken}` },
            })
          ).arrayBuffer(),
        ),
      );
    const billed = async (taxStatus: "T" | "F") => {
      const customerId = await newCustomer();
      await testApp.db.update(customers).set({ taxStatus }).where(eq(customers.id, customerId));
      const invoice = await add({ customer: customerId, invoice_date: today() });
      const ids = [
        (await post(customerId, "12.34", { codeId: materials!.id, serviceDate: today() })).id,
        (await post(customerId, "40.00", { serviceDate: today() })).id,
      ];
      await attachTransactions(testApp.db, tenantA(), invoice.id, ids);
      expect((await owner.post(`/api/invoices/${invoice.id}/close/`, {})).status).toBe(200);
      const summary = (await owner.get(`/api/summary-data/customer/${customerId}`)).body as { tax: string };
      return { text: await pdfOf(invoice.id), tax: summary.tax };
    };
    const taxable = await billed("T");
    expect(taxable.tax).toBe("12.34");
    expect(taxable.text).toMatch(/Taxable charges\s+\$12\.34/);
    expect(taxable.text).toMatch(/Invoice total\s+\$52\.34/);
    const exempt = await billed("F");
    expect(exempt.tax).toBe("0.00");
    expect(exempt.text).not.toContain("Taxable charges");
  });

  it("offers no PDF of an open invoice (spec: Get PDF shows when status is not open)", async () => {
    const { invoice } = await filledInvoice("9.00");
    const response = await owner.get(`/api/invoices/${invoice.id}/pdf/`);
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ detail: "An open invoice has no PDF yet: close it first." });
  });

  it("prints a voided line with its offset, so the lines add up to the total", async () => {
    const { invoice, entryIds } = await filledInvoice("52.09", "45.00");
    const voided = await owner.post(`/api/transactions/${entryIds[1]}/void_transaction/`, {});
    expect(voided.status).toBeLessThan(300);
    expect((await owner.post(`/api/invoices/${invoice.id}/close/`, {})).status).toBe(200);
    const response = await fetch(`${testApp.baseUrl}/api/invoices/${invoice.id}/pdf/`, {
      headers: { authorization: `Bearer ${fixture.a.ownerToken}` },
    });
    expect(response.status).toBe(200);
    const text = await pdfText(Buffer.from(await response.arrayBuffer()));
    // 52.09 + 45.00 (voided) − 45.00 (its void) = 52.09: before, the lines added to 97.09.
    const amounts = [...text.matchAll(/^\s*\d{2}\/\d{2}\/\d{4}\s.*?(-?\$[\d,]+\.\d{2})\s*$/gm)].map((m) =>
      Number(m[1]!.replace(/[$,]/g, "")),
    );
    expect(amounts).toEqual([52.09, 45, -45]);
    expect(text).toMatch(/Void of/);
    expect(text).toMatch(/Invoice total\s+\$52\.09/);
  });

  it("names the statement once the invoice was processed", async () => {
    const { invoice } = await filledInvoice("9.00");
    const statement = await createStatement(testApp.db, tenantA(), {
      customerId: invoice.customer.id,
      statementDate: "2024-03-31",
    });
    const response = await owner.get(`/api/invoices/${invoice.id}/pdf/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain(
      `filename="Invoice ${invoice.invoice_num} Statement ${statement.id}.pdf"`,
    );
    const admin = testApp.client(fixture.adminToken);
    expect(
      (await admin.get(`/api/invoices/${invoice.id}/pdf/`, { client_id: fixture.a.clientId })).status,
    ).toBe(200);
    expect(
      (await admin.get(`/api/invoices/${invoice.id}/pdf/`, { client_id: fixture.b.clientId })).status,
    ).toBe(404);
  });
});
