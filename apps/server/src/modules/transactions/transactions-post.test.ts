import { describe, expect, it } from "vitest";
import { addAmounts } from "@cyclebill/domain";
import { businessToday } from "../../clock.js";
import { customers } from "../../db/tables.js";
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

describe("totals of voids and reversals", () => {
  it("count a void or reversal with the entry it takes back: a payment's reversal is no charge", async () => {
    const [fresh] = await testApp.db
      .insert(customers)
      .values({ clientId: fixture.a.clientId, customerNo: 950, customerName: "Totals Taken Back" })
      .returning({ id: customers.id });
    const customer = fresh!.id;
    const charge = await enter({ customer, code: code.charge, rate: "100" });
    const payment = await enter({ customer, code: code.payment, rate: "30" });
    const invoice = await staff.post("/api/transactions/make_invoice/", { ids: [charge.id, payment.id] });
    expect(invoice.status, invoice.text).toBe(201);
    const invoiceId = (invoice.body as { id: number }).id;
    // The charge voided on the open invoice; the payment reversed once the invoice is closed.
    expect((await staff.post(`/api/transactions/${charge.id}/void_transaction/`)).status).toBe(201);
    expect((await staff.post(`/api/invoices/${invoiceId}/close/`)).status).toBe(200);
    const reversal = await staff.post(`/api/transactions/${payment.id}/reversal/`);
    expect(reversal.status, reversal.text).toBe(201);

    const totals = await staff.get("/api/transactions/get_total_amount/", { customer__id: customer });
    expect(totals.body).toEqual({
      totalAmount: "260.00",
      chargesAmount: "0.00",
      creditsAmount: "0.00",
      netAmount: "0.00",
      count: 4,
    });
    // The whole ledger (read from the customers' tallies) splits by the same rule.
    const whole = (await staff.get("/api/transactions/get_total_amount/")).body as Record<string, string>;
    const everything = await staff.get("/api/transactions/get_total_amount/", {
      serviceDate__gte: "1900-01-01",
    });
    expect(whole).toEqual(everything.body);
  });
});
