import { unzipSync, strFromU8 } from "fflate";
import { describe, expect, it } from "vitest";
import { businessToday } from "../../clock.js";
import { pdfText } from "../../test-support/pdf-text.js";
import {
  add,
  chargeCode,
  creditCode,
  fixture,
  owner,
  paymentCode,
  post,
  testApp,
  useCustomerWorld,
} from "../../test-support/customer-world.js";
import type { Customer, Page } from "../../test-support/customer-world.js";

useCustomerWorld();

describe("stored amounts and recurring charges", () => {
  it("validate descriptions and rates with the spec's messages", async () => {
    const customer = await add({ first_name: "Stored", last_name: "Amounts" });
    const stored = await owner.post("/api/storedamounts/", {
      customer: customer.id,
      storedCode: chargeCode,
      description: "d".repeat(61),
      rate: "-5",
    });
    expect(stored.body).toEqual({
      description: ["Description is too long. Please make sure it is under 60 characters."],
      rate: ["The rate contains invalid characters. Please use only digits and decimals."],
    });
    expect((await owner.post("/api/storedamounts/", { customer: customer.id })).body).toMatchObject({
      storedCode: ["Stored amounts must have a code and a rate."],
      rate: ["Stored amounts must have a code and a rate."],
    });
    const recurring = await owner.post("/api/autoamounts/", { customer: customer.id, description: "x" });
    expect(recurring.status).toBe(400);
    expect(Object.values(recurring.body as Record<string, string[]>).flat()).toContain(
      "Recurring charges must have a code, rate, start month, and end month.",
    );
    const saved = await owner.post("/api/storedamounts/", {
      customer: customer.id,
      storedCode: chargeCode,
      rate: "3.333",
      quantity: "3",
    });
    expect(saved.body).toMatchObject({ storedAmount: "10.00", rate: "3.33300", quantity: "3" });
    const id = (saved.body as { id: number }).id;
    const edited = await owner.put(`/api/storedamounts/${id}/`, {
      customer: customer.id,
      storedCode: chargeCode,
      rate: "2",
      quantity: "4",
    });
    expect(edited.body).toMatchObject({ storedAmount: "8.00" });
    expect((await owner.delete(`/api/storedamounts/${id}/`)).status).toBe(204);
  });
});

describe("archiving", () => {
  it("archives a customer with a zero balance, and unarchives it", async () => {
    const customer = await add({ first_name: "Zero", last_name: "Balance" });
    expect((await owner.delete(`/api/customers/${customer.id}/`)).status).toBe(204);
    const archived = (await owner.get("/api/customers/", { includeOnlyArchived: "true" })).body as Page;
    expect(archived.results.map((row) => row.id)).toContain(customer.id);
    expect(((await owner.get("/api/customers/")).body as Page).results.map((row) => row.id)).not.toContain(
      customer.id,
    );
    const restored = await owner.post(`/api/customers/${customer.id}/undelete-now/`);
    expect(restored.body).toMatchObject({ archive_state: "active", deleted: false });
  });

  it("marks a customer with a balance, refuses its charges, and archives it when the balance reaches zero", async () => {
    const customer = await add({ first_name: "Owes", last_name: "Money" });
    await post(customer.id, chargeCode, "80.00");
    const refused = await owner.delete(`/api/customers/${customer.id}/`);
    expect(refused).toMatchObject({
      status: 400,
      body: {
        non_field_errors: [
          "This customer has a balance of $80.00. Choose to archive it when the balance reaches zero instead.",
        ],
      },
    });
    const marked = await owner.post(`/api/customers/${customer.id}/delete-flag/`, { delete_flag: "D" });
    expect(marked.body).toMatchObject({ archive_state: "delete-when-zero", delete_flag: "D" });
    const pending = (await owner.get("/api/customers/", { includeOnlyPendingArchived: "true" })).body as Page;
    expect(pending.results.map((row) => row.id)).toEqual([customer.id]);
    await expect(post(customer.id, chargeCode, "5.00")).rejects.toMatchObject({
      body: { non_field_errors: ["Customer is marked for deletion and cannot accept charge transactions."] },
    });
    await post(customer.id, creditCode, "30.00");
    expect(((await owner.get(`/api/customers/${customer.id}/`)).body as Customer).deleted).toBe(false);
    await post(customer.id, paymentCode, "50.00");
    const after = (await owner.get(`/api/customers/${customer.id}/`)).body as Customer;
    expect(after).toMatchObject({ deleted: true, archive_state: "archived", balance: "0.00" });
    // Unarchiving starts the customer afresh: its history is not kept.
    await owner.post(`/api/customers/${customer.id}/undelete-now/`);
    const summary = (await owner.get(`/api/summary-data/customer/${customer.id}`)).body as Record<
      string,
      unknown
    >;
    expect(summary).toMatchObject({ balance: "0.00", last_pay_date_1: null, ytdCharges: "0.00" });
  });

  it("keeps billing flags distinct and refuses the two exclusive filters together", async () => {
    const customer = await add({ first_name: "Keep", last_name: "Billing" });
    await post(customer.id, chargeCode, "10.00");
    const marked = await owner.post(`/api/customers/${customer.id}/delete-flag/`, { delete_flag: "S" });
    expect(marked.body).toMatchObject({ archive_state: "delete-when-zero-keep-billing" });
    const cleared = await owner.post(`/api/customers/${customer.id}/delete-flag/`, { delete_flag: null });
    expect(cleared.body).toMatchObject({ archive_state: "active", delete_flag: null });
    expect(
      await owner.get("/api/customers/", { includeOnlyArchived: "true", includeOnlyPendingArchived: "true" }),
    ).toMatchObject({
      status: 400,
      body: { non_field_errors: ["Archived-only and pending-archive-only filters cannot be used together."] },
    });
  });
});

describe("the customer list", () => {
  it("pages, sorts, filters and carries the ledger columns", async () => {
    const customer = await add({ first_name: "Ledger", last_name: "Columns", phone1: "0000000000" });
    await post(customer.id, chargeCode, "100.00", "2026-01-10");
    await post(customer.id, chargeCode, "20.00");
    await post(customer.id, paymentCode, "45.00");
    await post(customer.id, creditCode, "5.00");
    const found = (await owner.get("/api/customers/", { query: "ledger col" })).body as Page;
    expect(found.count).toBe(1);
    const today = businessToday();
    expect(found.results[0]).toMatchObject({
      balance: "70.00",
      lastChargeAmount: "20.00",
      lastChargeDate: today,
      lastPaymentAmount: "45.00",
      lastPaymentDate: today,
      lastCreditAmount: "5.00",
      phone1: "0000000000",
    });
    const page = (await owner.get("/api/customers/", { limit: 2, page: 2, ordering: "-customer_no" }))
      .body as Page;
    expect(page.results).toHaveLength(2);
    expect(page.results[0]!.customer_no).toBeGreaterThan(page.results[1]!.customer_no);
    const byNumber = (await owner.get("/api/customers/", { query: String(customer.customer_no) }))
      .body as Page;
    expect(byNumber.results.map((row) => row.id)).toContain(customer.id);
    const today_ = (await owner.get("/api/customers/", { startDate: today, endDate: today })).body as Page;
    expect(today_.results.map((row) => row.id)).toContain(customer.id);
    expect((await owner.get("/api/customers/", { ordering: "lastPaymentDate" })).status).toBe(400);
    expect((await owner.get("/api/customers/", { startDate: "yesterday" })).status).toBe(400);
  });

  it("downloads Customers.zip with every customer and the balance sheet PDF", async () => {
    const zip = await fetch(`${testApp.baseUrl}/api/csv/customers/${fixture.a.clientId}`, {
      headers: { authorization: `Bearer ${fixture.a.ownerToken}` },
    });
    expect(zip.headers.get("content-disposition")).toContain('filename="Customers.zip"');
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    const csv = strFromU8(files["customers.csv"]!);
    const [header, ...lines] = csv.trim().split("\r\n");
    expect(header).toContain("customer_no,customer_name");
    expect(header).toContain("total_balance");
    const total = ((await owner.get("/api/customers/", { limit: 1 })).body as Page).count;
    const archived = (
      (await owner.get("/api/customers/", { includeOnlyArchived: "true", limit: 1 })).body as Page
    ).count;
    expect(lines).toHaveLength(total + archived);
    expect(csv).toContain("Byron & Co");

    const pdf = await fetch(`${testApp.baseUrl}/api/pdf/customer-mtd-report/${fixture.a.clientId}`, {
      headers: { authorization: `Bearer ${fixture.a.ownerToken}` },
    });
    expect(pdf.headers.get("content-disposition")).toContain('filename="Customer-Balance-Sheet.pdf"');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    // Its figures are the kept ones a statement resets: labelled "since last statement", never
    // "month to date" (Home's "This month" is the calendar month).
    const text = await pdfText(bytes);
    expect(text).toContain(`Since last statement, as of ${businessToday()}`);
    expect(text).not.toMatch(/month to date/i);
    expect(
      (await testApp.client(fixture.b.ownerToken).get(`/api/csv/customers/${fixture.a.clientId}`)).status,
    ).toBe(404);
  });

  it("summarises a customer for the Status tab", async () => {
    const customer = await add({ first_name: "Status", last_name: "Tab" });
    await post(customer.id, chargeCode, "60.00");
    await post(customer.id, paymentCode, "10.00");
    const summary = (await owner.get(`/api/summary-data/customer/${customer.id}`)).body as Record<
      string,
      unknown
    >;
    const today = businessToday();
    expect(summary).toMatchObject({
      balance: "50.00",
      current_balance: "50.00",
      currentCharges: "60.00",
      currentPayments: "10.00",
      ytdCharges: "60.00",
      last_charge_date: today,
      last_charge_amount: "60.00",
      last_pay_date_1: today,
      last_pay_amount: "10.00",
      last_pay_date_2: null,
      unprocessedBalance: "50.00",
    });
    expect(
      (await testApp.client(fixture.b.ownerToken).get(`/api/summary-data/customer/${customer.id}`)).status,
    ).toBe(404);
  });

  it("answers the day's last pay date and unprocessed balance as of a past day (issue 28, point 11; failed before: today's)", async () => {
    const customer = await add({ first_name: "Status", last_name: "Past" });
    await post(customer.id, chargeCode, "80.00", "2025-01-05");
    await post(customer.id, paymentCode, "30.00", "2025-01-10");
    await post(customer.id, paymentCode, "20.00", "2025-02-10");
    await post(customer.id, chargeCode, "5.00", "2025-02-11");
    const summary = (await owner.get(`/api/summary-data/customer/${customer.id}`, { as_of: "2025-01-31" }))
      .body as Record<string, unknown>;
    expect(summary).toMatchObject({
      balance: "50.00",
      last_pay_date: "2025-01-10",
      last_pay_date_1: "2025-01-10",
      unprocessedBalance: "50.00",
    });
    const now = (await owner.get(`/api/summary-data/customer/${customer.id}`)).body as Record<
      string,
      unknown
    >;
    expect(now).toMatchObject({ last_pay_date: "2025-02-10", unprocessedBalance: "35.00" });
  });
});
