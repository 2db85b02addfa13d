import { and, eq } from "drizzle-orm";
import { sumAmounts } from "@cyclebill/domain";
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
import { attachTransactions, createInvoice } from "../invoices/create-invoice.js";
import { ageCustomerBalances } from "../summary/customer-ageing.queries.js";
import { postTransaction } from "../transactions/post-transaction.js";
import { createStatement } from "./create-statement.js";
import { businessToday } from "../../clock.js";
import { TEST_MAILING_ADDRESS } from "../../test-support/mailing-address.js";

let testApp: TestApp;
let fixture: TenantFixture;
let owner: ApiClient;
let otherOwner: ApiClient;
const code = { charge: 0, payment: 0, credit: 0, debit: 0, info: 0 };

type Statement = {
  id: number;
  statement_num: number;
  invoice_num: number;
  statement_date: string;
  invoice_date: string;
  customer: number;
  customer_id: number;
  customer_name: string;
  invoice_status: string;
  new_balance: string;
  previous_balance: string;
  transactions?: { id: number }[];
  invoices?: { id: number }[];
};
type Page = { count: number; results: Statement[] };

const tenantA = () => ({ clientId: fixture.a.clientId });

beforeAll(async () => {
  testApp = await startTestApp();
  fixture = await createTenantFixture(testApp);
  owner = testApp.client(fixture.a.ownerToken);
  otherOwner = testApp.client(fixture.b.ownerToken);
  const rows = await testApp.db
    .insert(codes)
    .values([
      { clientId: fixture.a.clientId, code: 100, description: "Service", codeType: "charge" },
      { clientId: fixture.a.clientId, code: 200, description: "Payment", codeType: "payment" },
      { clientId: fixture.a.clientId, code: 300, description: "Credit", codeType: "adjust" },
      { clientId: fixture.a.clientId, code: 400, description: "Debit", codeType: "debit" },
      { clientId: fixture.a.clientId, code: 5, description: "Note", codeType: "info" },
    ])
    .returning();
  [code.charge, code.payment, code.credit, code.debit, code.info] = rows.map((row) => row.id) as [
    number,
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
      customerNo: 700 + customerCounter,
      customerName: `Statement customer ${customerCounter}`,
      ...TEST_MAILING_ADDRESS,
    })
    .returning();
  return (row as { id: number }).id;
}

function post(customerId: number, kind: keyof typeof code, rate: string, serviceDate: string) {
  return postTransaction(testApp.db, tenantA(), {
    customerId,
    codeId: code[kind],
    description: `${kind} entry`,
    rate,
    serviceDate,
  });
}

async function customerRow(id: number) {
  const [row] = await testApp.db.select().from(customers).where(eq(customers.id, id));
  if (!row) throw new Error("customer missing");
  return row;
}

async function entry(id: number) {
  const [row] = await testApp.db.select().from(transactions).where(eq(transactions.id, id));
  return row;
}

/** A customer with one statement, and the statement. */
async function statementFor(date = "2024-03-31", rate = "10.00") {
  const customerId = await newCustomer();
  await post(customerId, "charge", rate, date);
  const statement = await createStatement(testApp.db, tenantA(), { customerId, statementDate: date });
  return { customerId, statement };
}

describe("createStatement", () => {
  it("snapshots the period, carries entries and invoices, and starts the next period", async () => {
    const customerId = await newCustomer();
    const oldCharge = await post(customerId, "charge", "100.00", "2024-01-20");
    const charge = await post(customerId, "charge", "40.00", "2024-03-05");
    const payment = await post(customerId, "payment", "30.00", "2024-03-10");
    const credit = await post(customerId, "credit", "5.00", "2024-03-11");
    const debit = await post(customerId, "debit", "2.50", "2024-03-12");
    const note = await post(customerId, "info", "0", "2024-03-12");
    const future = await post(customerId, "charge", "7.00", "2024-04-02");
    const closed = await createInvoice(testApp.db, tenantA(), { customerId, invoiceDate: "2024-03-06" });
    await attachTransactions(testApp.db, tenantA(), closed.id, [charge.id]);
    await testApp.db.update(invoices).set({ invoiceStatus: "closed" }).where(eq(invoices.id, closed.id));
    // An open invoice holding an entry dated after the statement: the statement still carries both.
    const open = await createInvoice(testApp.db, tenantA(), { customerId, invoiceDate: "2024-03-30" });
    await attachTransactions(testApp.db, tenantA(), open.id, [future.id]);
    const before = await customerRow(customerId);
    expect(before.totalBalance).toBe("114.50");

    const statement = await createStatement(testApp.db, tenantA(), {
      customerId,
      statementDate: "2024-03-31",
      delivery: "email",
    });
    expect(statement).toMatchObject({
      customerId,
      statementDate: "2024-03-31",
      invoiceStatus: "processed",
      delivery: "email",
      previousBalance: "0.00",
      charges: "147.00",
      payments: "30.00",
      creditAdjustments: "5.00",
      debitAdjustments: "2.50",
      newBalance: "114.50",
    });
    const [ageing] = await ageCustomerBalances(testApp.db, fixture.a.clientId, "2024-03-31", [customerId]);
    expect(statement).toMatchObject({
      currentBalance: ageing?.current,
      overdue30Days: ageing?.days30,
      overdue60Days: ageing?.days60,
      overdue90Days: ageing?.days90,
      overdueOver90Days: ageing?.over90,
    });
    // Newest debits first: 7.00 + 2.50 + 40.00 are current; the rest of the balance is
    // the 71-day-old January charge, in the 60-day box.
    expect(statement.currentBalance).toBe("49.50");
    expect(statement.overdue60Days).toBe("65.00");
    expect(
      sumAmounts([
        statement.currentBalance,
        statement.overdue30Days,
        statement.overdue60Days,
        statement.overdue90Days,
        statement.overdueOver90Days,
      ]),
    ).toBe("114.50");

    for (const id of [oldCharge.id, charge.id, payment.id, credit.id, debit.id, note.id, future.id]) {
      expect((await entry(id))?.statementId).toBe(statement.id);
    }
    for (const id of [closed.id, open.id]) {
      const [row] = await testApp.db.select().from(invoices).where(eq(invoices.id, id));
      expect(row).toMatchObject({ invoiceStatus: "processed", statementId: statement.id });
      expect(row?.processedAt).not.toBeNull();
    }
    const after = await customerRow(customerId);
    expect(after).toMatchObject({
      totalBalance: "114.50",
      previousBalance: "114.50",
      mtdCharges: "0.00",
      mtdPayments: "0.00",
      mtdCrAdj: "0.00",
      mtdDbAdj: "0.00",
      overdue60Days: "65.00",
    });

    // The next period starts from the new balance and carries only what is new.
    const april = await post(customerId, "payment", "14.50", "2024-04-10");
    const later = await post(customerId, "charge", "9.00", "2024-05-15");
    const next = await createStatement(testApp.db, tenantA(), { customerId, statementDate: "2024-04-30" });
    expect(next.statementNum).toBe(statement.statementNum + 1);
    // The boxes are the entries it carries: the May charge is not on the April statement, so it is
    // in no box either (it used to count in charges and the new balance while not among the lines).
    expect(next).toMatchObject({
      previousBalance: "114.50",
      charges: "0.00",
      payments: "14.50",
      creditAdjustments: "0.00",
      newBalance: "100.00",
    });
    expect((await entry(april.id))?.statementId).toBe(next.id);
    expect((await entry(later.id))?.statementId).toBeNull();
    // It waits for May's statement: the next period starts from 100.00 with the 9.00 to bill.
    expect(await customerRow(customerId)).toMatchObject({
      totalBalance: "109.00",
      previousBalance: "100.00",
      mtdCharges: "9.00",
    });
    expect((await entry(charge.id))?.statementId).toBe(statement.id);
  });

  it("numbers statements per client and refuses unknown customers", async () => {
    const { statement } = await statementFor();
    const { statement: second } = await statementFor();
    expect(second.statementNum).toBe(statement.statementNum + 1);
    const otherCustomer = await newCustomer(fixture.b.clientId);
    const theirs = await createStatement(
      testApp.db,
      { clientId: fixture.b.clientId },
      { customerId: otherCustomer, statementDate: "2024-03-31" },
    );
    expect(theirs.statementNum).toBe(1);
    await expect(
      createStatement(testApp.db, tenantA(), { customerId: otherCustomer, statementDate: "2024-03-31" }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it("rolls back entirely when it fails part-way", async () => {
    const customerId = await newCustomer();
    const charge = await post(customerId, "charge", "5.00", "2024-03-01");
    await expect(
      createStatement(testApp.db, tenantA(), {
        customerId,
        statementDate: "2024-03-31",
        productionRunId: 99_999_999,
      }),
    ).rejects.toThrow();
    expect((await entry(charge.id))?.statementId).toBeNull();
    expect(await customerRow(customerId)).toMatchObject({ mtdCharges: "5.00", previousBalance: "0.00" });
  });
});

describe("GET /api/statements/", () => {
  it("lists with the combined table's fields, filters and newest first", async () => {
    const customerId = await newCustomer();
    await post(customerId, "charge", "12.00", "2024-02-10");
    const february = await createStatement(testApp.db, tenantA(), {
      customerId,
      statementDate: "2024-02-29",
    });
    await post(customerId, "charge", "3.00", "2024-03-10");
    const march = await createStatement(testApp.db, tenantA(), { customerId, statementDate: "2024-03-31" });

    const response = await owner.get("/api/statements/", { customer_id: customerId });
    expect(response.status).toBe(200);
    const page = response.body as Page;
    expect(page.count).toBe(2);
    expect(page.results.map((row) => row.id)).toEqual([march.id, february.id]);
    expect(page.results[0]).toMatchObject({
      document: "statement",
      statement_num: march.statementNum,
      invoice_num: march.statementNum,
      statement_date: "2024-03-31",
      invoice_date: "2024-03-31",
      customer: customerId,
      customer_id: customerId,
      customer_name: expect.stringMatching(/^Statement customer/) as unknown,
      invoice_status: "processed",
      previous_balance: "12.00",
      charges: "3.00",
      new_balance: "15.00",
      client: fixture.a.clientId,
    });

    const ranged = (
      await owner.get("/api/statements/", {
        customer_id: customerId,
        start_date: "2024-02-01",
        end_date: "2024-02-29",
      })
    ).body as Page;
    expect(ranged.results.map((row) => row.id)).toEqual([february.id]);
    const ascending = (
      await owner.get("/api/statements/", { customer_id: customerId, ordering: "statement_num", limit: 1 })
    ).body as Page;
    expect(ascending).toMatchObject({ count: 2 });
    expect(ascending.results.map((row) => row.id)).toEqual([february.id]);
    expect((await owner.get("/api/statements/", { ordering: "nope" })).status).toBe(400);
    expect((await owner.get("/api/statements/", { end_date: "2024-02-31" })).status).toBe(400);
  });

  it("keeps each client's statements to itself", async () => {
    const { statement } = await statementFor();
    const theirs = (await otherOwner.get("/api/statements/", { limit: 5000 })).body as Page;
    expect(theirs.results.map((row) => row.id)).not.toContain(statement.id);
    expect((await otherOwner.get("/api/statements/", { client_id: fixture.a.clientId })).status).toBe(404);
    expect((await otherOwner.get(`/api/statements/${statement.id}/`)).status).toBe(404);
    expect((await testApp.client(fixture.adminToken).get("/api/statements/")).status).toBe(400);
    expect((await testApp.client().get("/api/statements/")).status).toBe(401);
  });
});

describe("GET /api/statements/{id}/ and reopen", () => {
  it("shows the entries and invoices it carried", async () => {
    const customerId = await newCustomer();
    const charge = await post(customerId, "charge", "20.00", "2024-03-03");
    const invoice = await createInvoice(testApp.db, tenantA(), { customerId, invoiceDate: "2024-03-04" });
    await attachTransactions(testApp.db, tenantA(), invoice.id, [charge.id]);
    const statement = await createStatement(testApp.db, tenantA(), {
      customerId,
      statementDate: "2024-03-31",
    });
    const response = await owner.get(`/api/statements/${statement.id}/`);
    expect(response.status).toBe(200);
    const body = response.body as Statement;
    expect(body.transactions?.map((row) => row.id)).toEqual([charge.id]);
    expect(body.invoices).toEqual([
      { id: invoice.id, invoice_num: invoice.invoiceNum, invoice_date: "2024-03-04" },
    ]);
  });

  it("reopens a processed statement once; its invoices stay processed", async () => {
    const customerId = await newCustomer();
    const charge = await post(customerId, "charge", "20.00", "2024-03-03");
    const invoice = await createInvoice(testApp.db, tenantA(), { customerId, invoiceDate: "2024-03-04" });
    await attachTransactions(testApp.db, tenantA(), invoice.id, [charge.id]);
    const statement = await createStatement(testApp.db, tenantA(), {
      customerId,
      statementDate: "2024-03-31",
    });
    const before = await customerRow(customerId);

    expect((await otherOwner.post(`/api/statements/${statement.id}/reopen/`)).status).toBe(404);
    const reopened = await owner.post(`/api/statements/${statement.id}/reopen/`);
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ invoice_status: "open", new_balance: "20.00" });
    const again = await owner.post(`/api/statements/${statement.id}/reopen/`);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ non_field_errors: ["Only processed statements can be reopened."] });
    const [row] = await testApp.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.clientId, fixture.a.clientId), eq(invoices.id, invoice.id)));
    expect(row).toMatchObject({ invoiceStatus: "processed", statementId: statement.id });
    // Reopening changes no money.
    expect(await customerRow(customerId)).toMatchObject({
      totalBalance: before.totalBalance,
      previousBalance: before.previousBalance,
    });
    expect((await owner.post("/api/statements/99999999/reopen/")).status).toBe(404);
  });
});

describe("statement PDFs", () => {
  it("downloads one statement as Statement {statement_num}.pdf", async () => {
    const { statement } = await statementFor("2024-03-31", "55.00");
    const response = await fetch(`${testApp.baseUrl}/api/statements/${statement.id}/pdf/`, {
      headers: { authorization: `Bearer ${fixture.a.staffToken}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toContain(
      `filename="Statement ${statement.statementNum}.pdf"`,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pageCount(bytes)).toBe(1);
    expect((await otherOwner.get(`/api/statements/${statement.id}/pdf/`)).status).toBe(404);
    expect((await owner.get("/api/statements/99999999/pdf/")).status).toBe(404);
  });

  it("combines statements into one PDF, each from a new page", async () => {
    const { statement: first } = await statementFor("2024-03-31", "11.00");
    const { statement: second } = await statementFor("2024-03-31", "22.00");
    const { statement: foreign } = await (async () => {
      const customerId = await newCustomer(fixture.b.clientId);
      return {
        statement: await createStatement(
          testApp.db,
          { clientId: fixture.b.clientId },
          { customerId, statementDate: "2024-03-31" },
        ),
      };
    })();
    const today = businessToday();
    // Another client's statement in the list is not found, as any foreign id is (it was silently left out).
    const withForeign = await owner.post("/api/statements/combine/", {
      client_id: fixture.a.clientId,
      statement_ids: [first.id, second.id, foreign.id],
    });
    expect(withForeign.status, withForeign.text).toBe(404);
    expect(withForeign.body).toEqual({ detail: "Not found." });
    const response = await fetch(`${testApp.baseUrl}/api/statements/combine/`, {
      method: "POST",
      headers: { authorization: `Bearer ${fixture.a.ownerToken}`, "content-type": "application/json" },
      body: JSON.stringify({ client_id: fixture.a.clientId, statement_ids: [first.id, second.id, first.id] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toContain(
      `filename="Combined Statements ${today}.pdf"`,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pageCount(bytes)).toBe(2);

    const admin = testApp.client(fixture.adminToken);
    const asAdmin = await admin.post("/api/statements/combine/", {
      client_id: fixture.b.clientId,
      statement_ids: [foreign.id],
    });
    expect(asAdmin.status).toBe(200);
  });

  it("answers 'No statements to combine' when there are none", async () => {
    const { statement } = await statementFor();
    const none = { non_field_errors: ["No statements to combine"] };
    expect((await owner.post("/api/statements/combine/", { statement_ids: [] })).body).toEqual(none);
    const absent = await owner.post("/api/statements/combine/", { statement_ids: [99_999_999] });
    expect(absent.status, absent.text).toBe(404);
    // Client a's statement named by client b's owner is none of theirs: not found, like any foreign id.
    const foreign = await otherOwner.post("/api/statements/combine/", { statement_ids: [statement.id] });
    expect(foreign.status, foreign.text).toBe(404);
    expect(foreign.body).toEqual({ detail: "Not found." });
    expect((await owner.post("/api/statements/combine/", {})).body).toEqual({
      statement_ids: ["This field is required."],
    });
    expect((await owner.post("/api/statements/combine/", { statement_ids: ["x"] })).status).toBe(400);
    expect(
      (
        await otherOwner.post("/api/statements/combine/", {
          client_id: fixture.a.clientId,
          statement_ids: [statement.id],
        })
      ).status,
    ).toBe(404);
  });
});

/** Page objects in the file (pdfkit writes them uncompressed). */
function pageCount(pdf: Buffer): number {
  return pdf.toString("latin1").match(/\/Type \/Page\b/g)?.length ?? 0;
}
