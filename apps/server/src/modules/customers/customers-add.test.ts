import { unzipSync, strFromU8 } from "fflate";
import { describe, expect, it } from "vitest";
import { businessToday } from "../../clock.js";
import { pdfText } from "../../test-support/pdf-text.js";
import {
  ADDRESS,
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

// Last: it adds a customer and a client, which the numbering and export tests above do not expect.
describe("one-line fields", () => {
  it("stores names and addresses typed with line breaks as one line, and keeps a message's lines", async () => {
    const customer = await add({
      first_name: "Ada\r\nMaria",
      last_name: "By\tron",
      address2: "Apt 4\n",
      message: "Gate code 12\nRing twice",
    });
    expect(customer).toMatchObject({
      first_name: "Ada Maria",
      last_name: "By ron",
      customer_name: "Ada Maria By ron",
      address2: "Apt 4",
      message: "Gate code 12\nRing twice",
    });
    const client = await testApp
      .client(fixture.adminToken)
      .post("/api/clients/", { client_name: "Line\r\nBreak Lawn", address1: "1 Main\rSt" });
    expect(client.status, client.text).toBe(201);
    expect(client.body).toMatchObject({ client_name: "Line Break Lawn", address1: "1 Main St" });
  });
});
