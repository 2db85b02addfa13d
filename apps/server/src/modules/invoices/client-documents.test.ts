import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentClock, setClock } from "../../clock.js";
import { clients, customerPaymentMethods, invoices, pools, statementDeliveries } from "../../db/tables.js";
import { postOfKind } from "../../test-support/ledger-rows.js";
import { fixture, testApp, useTenantApp } from "../../test-support/tenant-app.js";
import type { ApiClient } from "../../test-support/test-app.js";
import { createCodes } from "../../test-support/test-codes.js";
import { insertCustomer } from "../../test-support/test-customers.js";
import { pdfText } from "../../test-support/pdf-text.js";
import { createStatement } from "../statements/create-statement.js";
import { attachTransactions, createInvoice } from "./create-invoice.js";

// Issue 31 point 4: GET /api/invoices-and-statements/ lists every invoice and statement of the
// client with amount, amount due, due date and how it went out; filtered, sorted, 15 a page.
// The clock is fixed, so "overdue" does not depend on the day the test runs.

type Doc = {
  document: "invoice" | "statement";
  id: number;
  invoice_num: number;
  customer_id: number;
  invoice_date: string;
  invoice_status: string;
  amount: string;
  amount_due: string;
  due_date: string | null;
  overdue: boolean;
  carried_forward: boolean;
  autopay: boolean;
  delivery: string | null;
  email: { status: string } | null;
  printed_at: string | null;
  sent_state: string;
};
type DocPage = { count: number; results: Doc[] };

const TODAY = "2025-06-15";
const realClock = currentClock();
const PATH = "/api/invoices-and-statements/";

let owner: ApiClient;
let staff: ApiClient;
let otherOwner: ApiClient;
let admin: ApiClient;
const code = { charge: 0, payment: 0 };
const ids = {
  alice: 0,
  bob: 0,
  carol: 0,
  dan: 0,
  aliceInvoice: 0,
  aliceMarch: 0,
  aliceApril: 0,
  bobOpen: 0,
  carolStatement: 0,
};
const danInvoices: number[] = [];

const tenantA = () => ({ clientId: fixture.a.clientId });

function newCustomer(customerNo: number, name: string, autopay = false): Promise<number> {
  return insertCustomer(testApp.db, {
    clientId: fixture.a.clientId,
    customerNo,
    customerName: name,
    lastName: name,
    autopayFlag: autopay,
  });
}

function post(customerId: number, kind: keyof typeof code, rate: string, serviceDate: string) {
  return postOfKind(testApp.db, fixture.a.clientId, code, { customerId, kind, rate, serviceDate });
}

async function list(client: ApiClient, query: Record<string, string | number> = {}) {
  const response = await client.get(PATH, query);
  return { status: response.status, body: response.body as DocPage };
}

const key = (doc: Pick<Doc, "document" | "id">) => `${doc.document}-${doc.id}`;

beforeAll(() => setClock({ now: () => new Date(`${TODAY}T15:00:00Z`), timeZone: "UTC" }));
useTenantApp();
beforeAll(async () => {
  owner = testApp.client(fixture.a.ownerToken);
  staff = testApp.client(fixture.a.staffToken);
  otherOwner = testApp.client(fixture.b.ownerToken);
  admin = testApp.client(fixture.adminToken);
  Object.assign(
    code,
    await createCodes(testApp.db, fixture.a.clientId, { charge: "charge", payment: "payment" }),
  );
  // The client can charge stored methods: Carol's autopay applies.
  await testApp.db
    .update(clients)
    .set({ bluepayAccountId: "100000000001", bluepaySecretKeyEncrypted: "sealed" })
    .where(eq(clients.id, fixture.a.clientId));

  // Alice: invoice 100 (March, closed), statements March (100) and April (120, after a 30 payment
  // and a 50 charge). The March statement was carried forward; April is due 120.
  ids.alice = await newCustomer(501, "Alice Arbor");
  const charge = await post(ids.alice, "charge", "100.00", "2025-03-05");
  const invoice = await createInvoice(testApp.db, tenantA(), {
    customerId: ids.alice,
    invoiceDate: "2025-03-06",
  });
  ids.aliceInvoice = invoice.id;
  await attachTransactions(testApp.db, tenantA(), invoice.id, [charge.id]);
  await testApp.db.update(invoices).set({ invoiceStatus: "closed" }).where(eq(invoices.id, invoice.id));
  const [pool] = await testApp.db
    .insert(pools)
    .values({
      poolName: `docs-${fixture.a.clientId}-march`,
      poolDate: "2025-03-31",
      clientId: fixture.a.clientId,
      state: "ready",
      downloadedAt: new Date("2025-04-01T09:00:00Z"),
    })
    .returning({ id: pools.id });
  ids.aliceMarch = (
    await createStatement(testApp.db, tenantA(), {
      customerId: ids.alice,
      statementDate: "2025-03-31",
      poolId: pool?.id ?? null,
    })
  ).id;
  await post(ids.alice, "payment", "30.00", "2025-04-10");
  await post(ids.alice, "charge", "50.00", "2025-04-20");
  const april = await createStatement(testApp.db, tenantA(), {
    customerId: ids.alice,
    statementDate: "2025-04-30",
    delivery: "email",
  });
  ids.aliceApril = april.id;
  await testApp.db.insert(statementDeliveries).values({
    clientId: fixture.a.clientId,
    statementId: april.id,
    recipient: "alice@example.com",
    status: "sent",
    attempts: 1,
    sentAt: new Date("2025-05-01T08:00:00Z"),
  });

  // Bob: an open invoice of 40 this month: due 40, no due date yet, not overdue.
  ids.bob = await newCustomer(502, "Bob Birch");
  const bobCharge = await post(ids.bob, "charge", "40.00", "2025-06-09");
  const open = await createInvoice(testApp.db, tenantA(), { customerId: ids.bob, invoiceDate: "2025-06-10" });
  ids.bobOpen = open.id;
  await attachTransactions(testApp.db, tenantA(), open.id, [bobCharge.id]);

  // Carol pays by autopay with a stored card: her statement of 60 asks nothing by hand.
  ids.carol = await newCustomer(503, "Carol Cedar", true);
  await testApp.db.insert(customerPaymentMethods).values({
    clientId: fixture.a.clientId,
    customerId: ids.carol,
    kind: "card",
    token: "100000000099",
    mask: "xxxxxxxxxxxx1111",
    cardType: "VISA",
    expiry: "1230",
  });
  await post(ids.carol, "charge", "60.00", "2025-05-02");
  ids.carolStatement = (
    await createStatement(testApp.db, tenantA(), { customerId: ids.carol, statementDate: "2025-05-31" })
  ).id;

  // Dan: 16 empty open invoices, so that the list has more than one page.
  ids.dan = await newCustomer(504, "Dan Dogwood");
  for (let day = 1; day <= 16; day += 1) {
    const made = await createInvoice(testApp.db, tenantA(), {
      customerId: ids.dan,
      invoiceDate: `2025-01-${String(day).padStart(2, "0")}`,
    });
    danInvoices.push(made.id);
  }
});

afterAll(() => setClock(realClock));

describe("GET /api/invoices-and-statements/", () => {
  it("lists the whole client 15 a page, newest first, with amounts, due dates and delivery", async () => {
    const first = await list(owner);
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(21);
    expect(first.body.results).toHaveLength(15);
    const second = await list(owner, { page: 2 });
    expect(second.body.results).toHaveLength(6);
    const all = [...first.body.results, ...second.body.results];
    expect(new Set(all.map(key)).size).toBe(21);
    const dates = all.map((doc) => doc.invoice_date);
    expect(dates).toEqual([...dates].sort().reverse());

    const byKey = new Map(all.map((doc) => [key(doc), doc]));
    const doc = (document: Doc["document"], id: number) => {
      const found = byKey.get(`${document}-${id}`);
      if (!found) throw new Error(`${document} ${id} not listed`);
      return found;
    };
    // The invoice 100: 50 charged since, balance 120, so 70 of it is unpaid; due 30 days on, overdue.
    expect(doc("invoice", ids.aliceInvoice)).toMatchObject({
      invoice_status: "processed",
      amount: "100.00",
      amount_due: "70.00",
      due_date: "2025-04-05",
      overdue: true,
      delivery: "mail",
      sent_state: "sent",
    });
    // March's balance was carried into April's statement, which is what is due.
    expect(doc("statement", ids.aliceMarch)).toMatchObject({
      amount: "100.00",
      amount_due: "0.00",
      due_date: "2025-04-30",
      overdue: false,
      carried_forward: true,
      delivery: "mail",
      printed_at: "2025-04-01T09:00:00.000Z",
      sent_state: "sent",
    });
    expect(doc("statement", ids.aliceApril)).toMatchObject({
      amount: "120.00",
      amount_due: "120.00",
      due_date: "2025-05-30",
      overdue: true,
      carried_forward: false,
      delivery: "email",
      email: { status: "sent" },
      sent_state: "sent",
    });
    expect(doc("invoice", ids.bobOpen)).toMatchObject({
      invoice_status: "open",
      amount: "40.00",
      amount_due: "40.00",
      due_date: null,
      overdue: false,
      delivery: null,
      sent_state: "not_sent",
    });
    // Autopay changes nothing until it is paid (issue 38: one amount-due rule): no card run charged
    // Carol's statement, so it is due, as her pay page says (not overdue before its due date).
    expect(doc("statement", ids.carolStatement)).toMatchObject({
      amount: "60.00",
      amount_due: "60.00",
      autopay: true,
      overdue: false,
      sent_state: "waiting",
    });
  });

  it("filters by customer, dates, type, status and open or overdue balance", async () => {
    const keys = async (query: Record<string, string | number>) =>
      (await list(owner, { limit: 100, ...query })).body.results.map(key).sort();

    expect(await keys({ customer_id: ids.alice })).toEqual(
      [`invoice-${ids.aliceInvoice}`, `statement-${ids.aliceMarch}`, `statement-${ids.aliceApril}`].sort(),
    );
    expect(await keys({ start_date: "2025-04-01", end_date: "2025-05-31" })).toEqual(
      [`statement-${ids.aliceApril}`, `statement-${ids.carolStatement}`].sort(),
    );
    expect(await keys({ document_type: "statements" })).toHaveLength(3);
    expect(await keys({ document_type: "invoices", customer_id: ids.alice })).toEqual([
      `invoice-${ids.aliceInvoice}`,
    ]);
    expect(await keys({ invoice_status: "open" })).toHaveLength(17);
    expect(await keys({ balance: "open" })).toEqual(
      [
        `invoice-${ids.aliceInvoice}`,
        `statement-${ids.aliceApril}`,
        `invoice-${ids.bobOpen}`,
        `statement-${ids.carolStatement}`,
      ].sort(),
    );
    expect(await keys({ balance: "overdue" })).toEqual(
      [`invoice-${ids.aliceInvoice}`, `statement-${ids.aliceApril}`].sort(),
    );

    const bad = await owner.get(PATH, { balance: "late", document_type: "all" });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body as object).sort()).toEqual(["balance", "document_type"]);
  });

  it("sorts by amount due, amount, due date and customer, and refuses unknown fields", async () => {
    const amountsDue = (await list(owner, { ordering: "-amount_due", limit: 4 })).body.results.map(
      (doc) => doc.amount_due,
    );
    expect(amountsDue).toEqual(["120.00", "70.00", "60.00", "40.00"]);
    const amounts = (await list(owner, { ordering: "-amount", limit: 3 })).body.results.map(
      (doc) => doc.amount,
    );
    expect(amounts).toEqual(["120.00", "100.00", "100.00"]);
    // Open invoices have no due date: last, ascending or descending.
    const dueAsc = (await list(owner, { ordering: "due_date", limit: 100 })).body.results;
    expect(dueAsc.slice(0, 4).map((doc) => doc.due_date)).toEqual([
      "2025-04-05",
      "2025-04-30",
      "2025-05-30",
      "2025-06-30",
    ]);
    expect(dueAsc.slice(4).every((doc) => doc.due_date === null)).toBe(true);
    const byCustomer = (await list(owner, { ordering: "-customer_no", limit: 100 })).body.results;
    expect(byCustomer[0]?.customer_id).toBe(ids.dan);
    expect(byCustomer.at(-1)?.customer_id).toBe(ids.alice);

    // Pages of a sorted list neither repeat nor skip a document.
    const pageOne = (await list(owner, { ordering: "amount", page: 1 })).body.results;
    const pageTwo = (await list(owner, { ordering: "amount", page: 2 })).body.results;
    expect(new Set([...pageOne, ...pageTwo].map(key)).size).toBe(21);

    const bad = await owner.get(PATH, { ordering: "-price" });
    expect(bad.status).toBe(400);
    expect((bad.body as { ordering: string[] }).ordering[0]).toMatch(/Unknown ordering field: price/);
  });

  it("keeps each client to its own documents; a foreign customer or client is a 404", async () => {
    expect((await list(staff)).body.count).toBe(21);
    expect((await list(otherOwner)).body.count).toBe(0);
    expect((await list(otherOwner, { customer_id: ids.alice })).status).toBe(404);
    expect((await list(otherOwner, { client_id: fixture.a.clientId })).status).toBe(404);
    expect((await list(owner, { customer_id: 99_999_999 })).status).toBe(404);
    // The provider's admin names the client.
    const forAdmin = await list(admin, { client_id: fixture.a.clientId, customer_id: ids.bob });
    expect(forAdmin.status).toBe(200);
    expect(forAdmin.body.results.map(key)).toEqual([`invoice-${ids.bobOpen}`]);
  });

  it("combines a selection of several customers' statements and invoices into one PDF", async () => {
    const response = await fetch(`${testApp.baseUrl}/api/statements/combine/`, {
      method: "POST",
      headers: { authorization: `Bearer ${fixture.a.ownerToken}`, "content-type": "application/json" },
      body: JSON.stringify({
        statement_ids: [ids.aliceApril, ids.carolStatement],
        invoice_ids: [ids.aliceInvoice],
      }),
    });
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = await pdfText(bytes);
    // Alice's and Carol's statements, then Alice's invoice, each from its own page.
    expect(text).toContain("Alice Arbor");
    expect(text).toContain("Carol Cedar");
    expect(text).toMatch(/Invoice No\./);
    expect(bytes.toString("latin1").match(/\/Type\s*\/Page[^s]/g)?.length).toBeGreaterThanOrEqual(3);

    // An open invoice has no PDF yet; another client's invoice is not found.
    const open = await owner.post("/api/statements/combine/", {
      statement_ids: [],
      invoice_ids: [ids.bobOpen],
    });
    expect(open.status).toBe(409);
    const foreign = await otherOwner.post("/api/statements/combine/", {
      statement_ids: [],
      invoice_ids: [ids.aliceInvoice],
    });
    expect(foreign.status).toBe(404);
    const none = await owner.post("/api/statements/combine/", { statement_ids: [], invoice_ids: [] });
    expect(none.body).toEqual({ non_field_errors: ["No statements to combine"] });
  });
});
