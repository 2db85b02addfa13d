import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invoices } from "../../db/tables.js";
import { attachTransactions, createInvoice } from "../invoices/create-invoice.js";
import { createStatement } from "./create-statement.js";
import { businessToday } from "../../clock.js";
import {
  customerRow,
  fixture,
  newCustomer,
  otherOwner,
  owner,
  post,
  statementFor,
  tenantA,
  testApp,
  useStatementWorld,
} from "../../test-support/statement-world.js";
import type { Page, Statement } from "../../test-support/statement-world.js";

useStatementWorld();

/** A customer's 20.00 charge on an invoice, and the statement of March 2024 that carries both. */
async function invoicedStatement() {
  const customerId = await newCustomer();
  const charge = await post(customerId, "charge", "20.00", "2024-03-03");
  const invoice = await createInvoice(testApp.db, tenantA(), { customerId, invoiceDate: "2024-03-04" });
  await attachTransactions(testApp.db, tenantA(), invoice.id, [charge.id]);
  // Closed, so the statement carries it (an open invoice stays open: its entries are billed as lines).
  await testApp.db.update(invoices).set({ invoiceStatus: "closed" }).where(eq(invoices.id, invoice.id));
  const statement = await createStatement(testApp.db, tenantA(), { customerId, statementDate: "2024-03-31" });
  return { customerId, charge, invoice, statement };
}

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
    const { charge, invoice, statement } = await invoicedStatement();
    const response = await owner.get(`/api/statements/${statement.id}/`);
    expect(response.status).toBe(200);
    const body = response.body as Statement;
    expect(body.transactions?.map((row) => row.id)).toEqual([charge.id]);
    expect(body.invoices).toEqual([
      { id: invoice.id, invoice_num: invoice.invoiceNum, invoice_date: "2024-03-04" },
    ]);
  });

  it("reopens a processed statement once; its invoices stay processed", async () => {
    const { customerId, invoice, statement } = await invoicedStatement();
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
