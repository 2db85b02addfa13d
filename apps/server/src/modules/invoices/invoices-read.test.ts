import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { codes, customers } from "../../db/tables.js";
import { createStatement } from "../statements/create-statement.js";
import { pdfText } from "../../test-support/pdf-text.js";
import { attachTransactions } from "./create-invoice.js";
import {
  add,
  chargeCode,
  filledInvoice,
  fixture,
  newCustomer,
  otherOwner,
  owner,
  paymentCode,
  post,
  tenantA,
  testApp,
  today,
  useInvoiceWorld,
} from "../../test-support/invoice-world.js";
import type { Invoice, Page } from "../../test-support/invoice-world.js";

useInvoiceWorld();

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

  it("prints a voided line as the invoice screen shows it: marked, not counted, no invented offset", async () => {
    const { invoice, entryIds } = await filledInvoice("52.09", "45.00");
    const voided = await owner.post(`/api/transactions/${entryIds[1]}/void_transaction/`, {});
    expect(voided.status).toBeLessThan(300);
    expect((await owner.post(`/api/invoices/${invoice.id}/close/`, {})).status).toBe(200);
    const response = await fetch(`${testApp.baseUrl}/api/invoices/${invoice.id}/pdf/`, {
      headers: { authorization: `Bearer ${fixture.a.ownerToken}` },
    });
    expect(response.status).toBe(200);
    const text = await pdfText(Buffer.from(await response.arrayBuffer()));
    // Issue 41: the void is a separate entry dated the day it was made, not on the invoice (the
    // statement bills it); the invoice screen strikes the voided line and leaves it out of the total.
    const amounts = [...text.matchAll(/^\s*\d{2}\/\d{2}\/\d{4}\s.*?(-?\$[\d,]+\.\d{2})\s*$/gm)].map((m) =>
      Number(m[1]!.replace(/[$,]/g, "")),
    );
    expect(amounts).toEqual([52.09, 45]);
    expect(text).toMatch(/\(voided\)/);
    expect(text).not.toMatch(/Void of/);
    expect(text).toMatch(/Charges\s+\$52\.09/);
    expect(text).toMatch(/Payments and credits\s+\$0\.00/);
    expect(text).toMatch(/Invoice total\s+\$52\.09/);
    expect((await owner.get(`/api/invoices/${invoice.id}/`)).body).toMatchObject({ total: "52.09" });
  });

  it("names the statement once the invoice was processed", async () => {
    const { invoice } = await filledInvoice("9.00");
    expect((await owner.post(`/api/invoices/${invoice.id}/close/`)).status).toBe(200);
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
