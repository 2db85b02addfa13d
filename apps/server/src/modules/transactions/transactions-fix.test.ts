import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { customers, invoices } from "../../db/tables.js";
import {
  balanceOf,
  code,
  customerIds,
  enter,
  fixture,
  staff,
  testApp,
  useTransactionWorld,
} from "../../test-support/transaction-world.js";
import type { Entry } from "../../test-support/transaction-world.js";

useTransactionWorld();

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
    // A number on both databases (node-pg reads bigint as a string), as the document says.
    const reversed = (await staff.get(`/api/transactions/${entry.id}/`)).body as Entry & {
      reversed_by: unknown;
    };
    expect(reversed.reversed_by).toBe(reversal.id);
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
