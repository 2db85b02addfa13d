// The customer list reads its rows from the database already under the API's names, apart from
// the record mapping (customerToApi) that GET /api/customers/{id}/ uses: both must say the same.
import { describe, expect, it } from "vitest";
import { customerListRowSchema } from "@cyclebill/domain";
import {
  add as addCustomer,
  chargeCode,
  creditCode,
  owner,
  paymentCode,
  post,
  useCustomerWorld,
} from "../../test-support/customer-world.js";
import { businessToday } from "../../clock.js";

type Row = Record<string, unknown> & { id: number; customer_no: number };
type Page = { count: number; results: Row[] };

useCustomerWorld();

const add = (body: Record<string, unknown>) => addCustomer<Row>(body);

async function listRow(customer: Row, query: Record<string, string> = {}): Promise<Row> {
  const page = (await owner.get("/api/customers/", { query: String(customer.customer_no), ...query }))
    .body as Page;
  const row = page.results.find((candidate) => candidate.id === customer.id);
  expect(row).toBeDefined();
  return row!;
}

/** The ageing the list works out from the ledger (the record keeps the last statement's). */
const AGEING = [
  "current_balance",
  "overdue_30_days",
  "overdue_60_days",
  "overdue_90_days",
  "overdue_over_90_days",
];

describe("a customer list row", () => {
  it("says what the customer's record says, field by field, with the list's own columns", async () => {
    const customer = await add({
      first_name: "Rowena",
      last_name: "Fields",
      company_name: "Fields & Sons",
      phone1: "(217)-555-0111",
      email: "rowena@example.com",
      address1: "1 Main St",
      city: "Springfield",
      state: "IL",
      zip: "62701",
      property_address1: "2 Side St",
      property_city: "Shelbyville",
      message: "Thank you",
    });
    await post(customer.id, chargeCode, "100.00");
    await post(customer.id, paymentCode, "30.00");
    await post(customer.id, creditCode, "5.50");
    const marked = await owner.post(`/api/customers/${customer.id}/delete-flag/`, { delete_flag: "S" });
    expect(marked.status, marked.text).toBe(200);

    const record = (await owner.get(`/api/customers/${customer.id}/`)).body as Row;
    const row = await listRow(customer);
    // Exactly the shared response type's fields, nothing more.
    expect(customerListRowSchema.strict().safeParse(row).error).toBeUndefined();
    for (const [field, value] of Object.entries(record)) {
      if (!AGEING.includes(field)) expect([field, row[field]]).toEqual([field, value]);
    }
    expect(row).toMatchObject({
      delete_flag: "S",
      archive_state: "delete-when-zero-keep-billing",
      balance: "64.50",
      total_balance: "64.50",
      current_balance: "64.50",
      overdue_30_days: "0.00",
      current_charges: "100.00",
      current_payments_credits: "35.50",
      adjusted_total_balance: "64.50",
      contract_balance: "0.00",
      mtdCharges: "100.00",
      mtdCRAdjust: "5.50",
      lastChargeAmount: "100.00",
      lastChargeDate: businessToday(),
      lastPaymentAmount: "30.00",
      lastCreditAmount: "5.50",
    });
  });

  it("takes the last charge and credit from the entries themselves, never from a void or reversal", async () => {
    const customer = await add({ first_name: "Otto", last_name: "Offsets" });
    await post(customer.id, chargeCode, "40.00");
    await post(customer.id, creditCode, "5.50");
    const invoice = await owner.post("/api/invoices/", {
      customer: customer.id,
      invoice_date: businessToday(),
    });
    expect(invoice.status, invoice.text).toBe(201);
    const onInvoice = async (codeId: number, rate: string) => {
      const created = await owner.post("/api/transactions/", {
        customer: customer.id,
        code: codeId,
        description: "on the invoice",
        quantity: "1",
        rate,
        serviceDate: businessToday(),
        unitofmeasure: 1,
        invoice: (invoice.body as Row).id,
      });
      expect(created.status, created.text).toBe(201);
      const voided = await owner.post(`/api/transactions/${(created.body as Row).id}/void_transaction/`, {});
      expect(voided.status, voided.text).toBe(201);
    };
    await onInvoice(chargeCode, "45.00");
    await onInvoice(creditCode, "3.00");
    // The voids came last, but they are not charges or credits of their own.
    expect(await listRow(customer)).toMatchObject({
      balance: "34.50",
      lastChargeAmount: "40.00",
      lastCreditAmount: "5.50",
      lastPaymentAmount: null,
    });
    // The Status tab's activity says the same: the voided pairs add nothing this month.
    const summary = (await owner.get(`/api/summary-data/customer/${customer.id}`)).body as Row;
    expect(summary).toMatchObject({
      balance: "34.50",
      currentCharges: "40.00",
      currentCreditAdjustment: "5.50",
      last_charge_amount: "40.00",
      last_credit_amount: "5.50",
    });
  });

  it("gives the balance as of a past day from the ledger", async () => {
    const customer = await add({ first_name: "Past", last_name: "Balance" });
    await post(customer.id, chargeCode, "40.00");
    expect(await listRow(customer, { as_of: "2000-01-31" })).toMatchObject({
      balance: "0.00",
      total_balance: "0.00",
      current_balance: "0.00",
    });
    expect(await listRow(customer)).toMatchObject({ balance: "40.00", current_balance: "40.00" });
  });

  it("answers a page far past the end with no rows, whatever its offset comes to", async () => {
    const response = await owner.get("/api/customers/", { page: "999999999999999", limit: "5000" });
    expect(response.status, response.text).toBe(200);
    expect((response.body as Page).results).toEqual([]);
    expect((response.body as Page).count).toBeGreaterThan(0);
  });
});
