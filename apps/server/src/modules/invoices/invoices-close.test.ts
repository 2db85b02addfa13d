import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invoices, transactions } from "../../db/tables.js";
import { createStatement } from "../statements/create-statement.js";
import { postTransaction } from "../transactions/post-transaction.js";
import { attachTransactions, createInvoice } from "./create-invoice.js";
import {
  balanceOf,
  entry,
  filledInvoice,
  fixture,
  newCustomer,
  otherChargeCode,
  otherOwner,
  owner,
  post,
  staff,
  tenantA,
  testApp,
  useInvoiceWorld,
} from "../../test-support/invoice-world.js";
import type { Invoice } from "../../test-support/invoice-world.js";

useInvoiceWorld();

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
