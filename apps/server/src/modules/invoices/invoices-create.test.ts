import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { transactions } from "../../db/tables.js";
import { postTransaction } from "../transactions/post-transaction.js";
import {
  add,
  entry,
  filledInvoice,
  fixture,
  infoCode,
  newCustomer,
  otherChargeCode,
  otherOwner,
  owner,
  paymentCode,
  post,
  staff,
  testApp,
  today,
  useInvoiceWorld,
} from "../../test-support/invoice-world.js";
import type { Invoice, Page } from "../../test-support/invoice-world.js";

useInvoiceWorld();

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
