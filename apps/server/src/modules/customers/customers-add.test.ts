import { describe, expect, it } from "vitest";
import {
  ADDRESS,
  add,
  chargeCode,
  fixture,
  owner,
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
