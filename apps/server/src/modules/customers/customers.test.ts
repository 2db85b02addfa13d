import { unzipSync, strFromU8 } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codes } from "../../db/tables.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import {
  createTenantFixture,
  startTestApp,
  type ApiClient,
  type TenantFixture,
  type TestApp,
} from "../../test-support/test-app.js";
import { postTransaction } from "../transactions/post-transaction.js";
import { businessToday } from "../../clock.js";
import { pdfText } from "../../test-support/pdf-text.js";

let testApp: TestApp;
let fixture: TenantFixture;
let owner: ApiClient;
let chargeCode: number;
let paymentCode: number;
let creditCode: number;

type Customer = Record<string, unknown> & {
  id: number;
  customer_no: number;
  customer_name: string;
  archive_state: string;
};
type Page = { count: number; results: Customer[] };

beforeAll(async () => {
  testApp = await startTestApp();
  fixture = await createTenantFixture(testApp);
  owner = testApp.client(fixture.a.ownerToken);
  const rows = await testApp.db
    .insert(codes)
    .values([
      { clientId: fixture.a.clientId, code: 100, description: "Service", codeType: "charge" },
      { clientId: fixture.a.clientId, code: 200, description: "Payment", codeType: "payment" },
      { clientId: fixture.a.clientId, code: 300, description: "Credit", codeType: "adjust" },
    ])
    .returning();
  [chargeCode, paymentCode, creditCode] = rows.map((row) => row.id) as [number, number, number];
});
afterAll(async () => {
  expect(await ledgerMismatches(testApp.db)).toEqual([]);
  await testApp?.close();
});

const ADDRESS = { address1: "1 Main St", city: "Austin", state: "TX", zip: "73301" };

async function add(body: Record<string, unknown>): Promise<Customer> {
  const response = await owner.post("/api/customers/", { ...ADDRESS, ...body });
  expect(response.status, response.text).toBe(201);
  return response.body as Customer;
}

function post(customerId: number, codeId: number, rate: string, serviceDate?: string) {
  return postTransaction(
    testApp.db,
    { clientId: fixture.a.clientId },
    { customerId, codeId, description: "entry", rate, serviceDate },
  );
}

describe("adding customers", () => {
  it("applies the defaults, numbers after the highest and derives the invoice flag", async () => {
    const customer = await add({ first_name: "Ada", last_name: "Byron" });
    expect(customer).toMatchObject({
      customer_name: "Ada Byron",
      pull_flag: "A",
      bi_pull_flag: "M",
      finance_flag: "C",
      tax_status: "T",
      archive_state: "active",
      balance: "0.00",
    });
    expect(customer.customer_no).toBe(1001);
    expect(
      (await add({ company_name: "Byron & Co", pull_flag: "M", email: "co@example.com" })).bi_pull_flag,
    ).toBe("B");
    expect(
      (await add({ company_name: "Mail Only Co", pull_flag: "E", email: "m@example.com" })).bi_pull_flag,
    ).toBe("E");
  });

  it("answers with the spec's messages", async () => {
    expect((await owner.post("/api/customers/", { ...ADDRESS, phone1: "123" })).body).toEqual({
      phone1: ["123 is not a valid phone number"],
    });
    expect((await owner.post("/api/customers/", ADDRESS)).body).toEqual({
      non_field_errors: ["You must include at least a first name, last name, or company name."],
    });
    expect(
      (await owner.post("/api/customers/", { ...ADDRESS, first_name: "E", pull_flag: "E" })).body,
    ).toEqual({
      email: ["You must include an email or they will not get emailed bills."],
    });
    expect(
      (await owner.post("/api/customers/", { ...ADDRESS, first_name: "E", bi_pull_flag: "B" })).body,
    ).toEqual({
      email: ["You must include an email or they will not get emailed bills."],
    });
    expect(
      (
        await owner.post("/api/customers/", {
          ...ADDRESS,
          first_name: "Z",
          zip: "12",
          property_zip: "abcde",
          property_state: "T1",
        })
      ).body,
    ).toEqual({
      zip: ["Must be 5 digits"],
      property_zip: ["Must be 5 digits"],
      property_state: ["Use the two-letter state abbreviation."],
    });
    const customer = await add({ first_name: "To", last_name: "Update" });
    expect(
      (await owner.put(`/api/customers/${customer.id}/`, { ...ADDRESS, first_name: "", last_name: "" })).body,
    ).toEqual({
      non_field_errors: ["You must include at least a first name or last name or a company name."],
    });
    const updated = await owner.put(`/api/customers/${customer.id}/`, {
      ...ADDRESS,
      first_name: "Now",
      last_name: "Updated",
      city: "Austin",
    });
    expect(updated.body).toMatchObject({
      customer_name: "Now Updated",
      city: "Austin",
      customer_no: customer.customer_no,
    });
  });
});

describe("the address rule (issue 28, point 8; failed before: a company name alone was saved)", () => {
  const missing = {
    address1: ["Address line 1 required"],
    city: ["City required"],
    state: ["State required"],
    zip: ["Must be 5 digits"],
    non_field_errors: ["Please correct the address fields."],
  };

  it("refuses a customer without a mailing address on create, full-create and update, saving nothing", async () => {
    const before = (await owner.get("/api/customers/", { limit: 1 })).body as { count: number };
    const created = await owner.post("/api/customers/", { company_name: "No Address Co", pull_flag: "A" });
    expect(created.status).toBe(400);
    expect(created.body).toEqual(missing);
    const full = await owner.post("/api/customers/full-create/", {
      customer: { company_name: "No Address Co", city: "Austin" },
    });
    expect(full.status).toBe(400);
    expect(full.body).toEqual({
      customer: [
        "address1: Address line 1 required",
        "state: State required",
        "zip: Must be 5 digits",
        "Please correct the address fields.",
      ],
    });
    expect(((await owner.get("/api/customers/", { limit: 1 })).body as { count: number }).count).toBe(
      before.count,
    );
    const customer = await add({ company_name: "Has Address Co" });
    const cleared = await owner.put(`/api/customers/${customer.id}/`, {
      company_name: "Has Address Co",
      address1: "",
      city: "Austin",
      state: "TX",
      zip: "73301",
    });
    expect(cleared.status).toBe(400);
    expect(cleared.body).toEqual({
      address1: ["Address line 1 required"],
      non_field_errors: ["Please correct the address fields."],
    });
    expect(((await owner.get(`/api/customers/${customer.id}/`)).body as Customer).address1).toBe("1 Main St");
  });
});

describe("full-create", () => {
  it("creates the customer with recurring charges, stored amounts and groups together", async () => {
    const group = (await owner.post("/api/routes/", { route_name: "Full-create group" })).body as {
      id: number;
    };
    const response = await owner.post("/api/customers/full-create/", {
      client_id: fixture.a.clientId,
      customer: { ...ADDRESS, first_name: "Full", last_name: "Create" },
      recurring_charges: [
        { auto_code: chargeCode, rate: "25.5", quantity: 2, start_month: 4, end_month: 10 },
      ],
      stored_amounts: [{ storedCode: chargeCode, description: "Mowing", rate: "40", quantity: "1.5" }],
      group_ids: [group.id],
    });
    expect(response.status).toBe(201);
    const customer = response.body as Customer;
    const recurring = (await owner.get("/api/autoamounts/", { customer__id: customer.id })).body as {
      results: Record<string, unknown>[];
    };
    expect(recurring.results).toMatchObject([
      {
        auto_amount: "51.00",
        rate: "25.50000",
        quantity: 2,
        start_month: 4,
        end_month: 10,
        frequency: "monthly",
        finance_type: "Advance",
      },
    ]);
    const stored = (await owner.get("/api/storedamounts/", { customer__id: customer.id })).body as {
      results: Record<string, unknown>[];
    };
    expect(stored.results).toMatchObject([
      { storedAmount: "60.00", description: "Mowing", storedCode: chargeCode },
    ]);
    const plans = (await owner.get("/api/routeplans/", { customer__id: customer.id })).body as {
      count: number;
    };
    expect(plans.count).toBe(1);
  });

  it("creates nothing when any part is wrong", async () => {
    const before = ((await owner.get("/api/customers/")).body as Page).count;
    const badCode = await owner.post("/api/customers/full-create/", {
      customer: { ...ADDRESS, first_name: "Half", last_name: "Made" },
      stored_amounts: [{ storedCode: 99_999_999, rate: "1" }],
    });
    expect(badCode).toMatchObject({ status: 400, body: { stored_amounts: ["0: Invalid code."] } });
    const missing = await owner.post("/api/customers/full-create/", {
      customer: { ...ADDRESS, first_name: "Half", last_name: "Made" },
      recurring_charges: [{ auto_code: chargeCode, rate: "5" }],
    });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain(
      "Recurring charges must have a code, rate, start month, and end month.",
    );
    const badGroup = await owner.post("/api/customers/full-create/", {
      customer: { ...ADDRESS, first_name: "Half", last_name: "Made" },
      group_ids: [99_999_999],
    });
    expect(badGroup.status).toBe(400);
    expect(((await owner.get("/api/customers/")).body as Page).count).toBe(before);
  });
});

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
