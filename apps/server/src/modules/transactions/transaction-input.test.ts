import { beforeAll, describe, expect, it } from "vitest";
import { customers } from "../../db/tables.js";
import type { ApiClient } from "../../test-support/test-app.js";
import { fixture, testApp, useTenantApp } from "../../test-support/tenant-app.js";
import { createCodes } from "../../test-support/test-codes.js";
import { MOWING } from "../../test-support/transaction-world.js";

// Issue 13, points 4 and 5: impossible dates and an amount that disagrees with rate × quantity.

let staff: ApiClient;
let customerId: number;
let codeId: number;

useTenantApp();
beforeAll(async () => {
  staff = testApp.client(fixture.a.staffToken);
  const [customer] = await testApp.db
    .insert(customers)
    .values({ clientId: fixture.a.clientId, customerNo: 700, customerName: "Dates" })
    .returning({ id: customers.id });
  customerId = customer!.id;
  ({ charge: codeId } = await createCodes(testApp.db, fixture.a.clientId, {
    charge: { ...MOWING, code: 700 },
  }));
});

/** Posts an entry of the customer's charge code with `fields`. */
const enter = (fields: Record<string, unknown>) =>
  staff.post("/api/transactions/", { customer: customerId, code: codeId, ...fields });

/** A GET as client A's staff, outside the API client (a CSV download). */
const fetchAsStaff = (url: string) =>
  fetch(url, { headers: { authorization: `Bearer ${fixture.a.staffToken}` } });

describe("dates in transaction input", () => {
  it("refuses impossible filter dates on the search and its totals, naming the filter", async () => {
    for (const path of ["/api/transactions/", "/api/transactions/get_total_amount/"]) {
      const impossible = await staff.get(`${path}?created__gte=2026-13-45`);
      expect(impossible.status, impossible.text).toBe(400);
      expect(impossible.body).toEqual({
        created__gte: ["created__gte: 2026-13-45 is not a real date (use YYYY-MM-DD)."],
      });
      // Used to be read as 2026-03-02.
      const rolledOver = await staff.get(`${path}?serviceDate__lte=2026-02-30`);
      expect(rolledOver.status, rolledOver.text).toBe(400);
      expect(rolledOver.body).toEqual({
        serviceDate__lte: ["serviceDate__lte: 2026-02-30 is not a real date (use YYYY-MM-DD)."],
      });
      const malformed = await staff.get(`${path}?created__lte=yesterday`);
      expect(malformed.body).toEqual({
        created__lte: ['created__lte: "yesterday" is not a date (use YYYY-MM-DD).'],
      });
      expect((await staff.get(`${path}?created__gte=2024-02-29&serviceDate__lte=2026-12-31`)).status).toBe(
        200,
      );
    }
  });

  it("refuses an impossible date in the CSV download's path before sending anything", async () => {
    const base = `${testApp.baseUrl}/api/csv/customers/transactions/${fixture.a.clientId}/0/0/0`;
    const response = await fetchAsStaff(`${base}/2026-13-45/0/0/0`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      createdFrom: ["createdFrom: 2026-13-45 is not a real date (use YYYY-MM-DD, or 0 for no limit)."],
    });
    const rolledOver = await fetchAsStaff(`${base}/0/0/0/2026-02-30`);
    expect(rolledOver.status).toBe(400);
    const fine = await fetchAsStaff(`${base}/2024-02-29/0/0/0`);
    expect(fine.status).toBe(200);
    await fine.text();
  });

  it("refuses an impossible service date with the field's name, on entry and mass update", async () => {
    const entry = await enter({ rate: "1", serviceDate: "2026-02-30" });
    expect(entry.status, entry.text).toBe(400);
    expect(entry.body).toEqual({
      serviceDate: ["serviceDate: 2026-02-30 is not a real date (use YYYY-MM-DD)."],
    });
    const massUpdate = await staff.post("/api/transactions/mass_update/", {
      ids: [1],
      changes: { serviceDate: "2025-04-31" },
    });
    expect(massUpdate.status, massUpdate.text).toBe(400);
    expect(massUpdate.body).toEqual({
      changes: ["serviceDate: 2025-04-31 is not a real date (use YYYY-MM-DD)."],
    });
    const batch = await staff.post("/api/transactionsroutes/", {
      code: codeId,
      amount: "1",
      transaction_type: "bulk",
      service_date: "2023-02-29",
    });
    expect(batch.status, batch.text).toBe(400);
    expect(batch.body).toEqual({
      service_date: ["service_date: 2023-02-29 is not a real date (use YYYY-MM-DD)."],
    });
  });
});

describe("a given amount", () => {
  it("is refused when it disagrees with rate × quantity", async () => {
    const response = await enter({ rate: "1", amount: "5" });
    expect(response.status, response.text).toBe(400);
    expect(response.body).toEqual({
      amount: ["Amount 5.00 does not match rate × quantity (1.00). Leave amount out, or send 1.00."],
    });
  });

  it("is taken when it matches, after rounding to cents as the ledger does", async () => {
    const response = await enter({ rate: "0.33333", quantity: "3", amount: "1", serviceDate: "2024-02-29" });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ amount: "1.00", serviceDate: "2024-02-29" });
  });
});
