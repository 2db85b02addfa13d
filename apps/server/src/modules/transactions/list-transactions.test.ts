// The transaction list keeps one prepared statement per shape of search (which filters are given,
// the ordering, the page) and fills in each request's values: a search of the same shape with other
// values, or by another client, must get its own rows, never the last one's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCodes } from "../../test-support/test-codes.js";
import { insertCustomers } from "../../test-support/test-customers.js";
import { MOWING } from "../../test-support/transaction-world.js";
import type { ApiClient, TenantFixture, TestApp } from "../../test-support/test-app.js";
import { startTenantApp } from "../../test-support/tenant-app.js";

let testApp: TestApp;
let fixture: TenantFixture;
let staff: ApiClient;
let code: { charge: number; payment: number };
let customerIds: number[];

type Entry = { id: number; customer: number; amount: string; serviceDate: string; created: string };
type Page = { count: number; results: Entry[] };

beforeAll(async () => {
  ({ testApp, fixture } = await startTenantApp());
  staff = testApp.client(fixture.a.staffToken);
  code = await createCodes(testApp.db, fixture.a.clientId, { charge: MOWING, payment: "payment" });
  customerIds = await insertCustomers(testApp.db, {
    clientId: fixture.a.clientId,
    count: 2,
    firstNo: 700,
    name: "Search",
  });
  const post = async (customer: number, entryCode: number, rate: string, serviceDate: string) => {
    const response = await staff.post("/api/transactions/", {
      customer,
      code: entryCode,
      rate,
      serviceDate,
      force: true,
    });
    expect(response.status, response.text).toBe(201);
  };
  await post(customerIds[0]!, code.charge, "11", "2026-01-10");
  await post(customerIds[0]!, code.payment, "12", "2026-02-10");
  await post(customerIds[1]!, code.charge, "21", "2026-01-20");
  await post(customerIds[1]!, code.charge, "22", "2026-03-20");
});
afterAll(async () => testApp?.close());

async function amounts(client: ApiClient, query: Record<string, string | number>): Promise<string[]> {
  const response = await client.get("/api/transactions/", query);
  expect(response.status, response.text).toBe(200);
  const page = response.body as Page;
  expect(page.count).toBe(page.results.length);
  return page.results.map((entry) => entry.amount);
}

describe("the transaction list's kept statements", () => {
  it("answer each search of one shape with that search's own values", async () => {
    // Newest service date first (the default ordering).
    expect(await amounts(staff, { customer__id: customerIds[0]! })).toEqual(["12.00", "11.00"]);
    expect(await amounts(staff, { customer__id: customerIds[1]! })).toEqual(["22.00", "21.00"]);
    expect(await amounts(staff, { serviceDate__gte: "2026-01-15", serviceDate__lte: "2026-02-28" })).toEqual([
      "12.00",
      "21.00",
    ]);
    expect(await amounts(staff, { serviceDate__gte: "2026-03-01", serviceDate__lte: "2026-03-31" })).toEqual([
      "22.00",
    ]);
    expect(await amounts(staff, { code__id: code.payment })).toEqual(["12.00"]);
    expect(await amounts(staff, { code__id: code.charge, ordering: "amount" })).toEqual([
      "11.00",
      "21.00",
      "22.00",
    ]);
    expect(await amounts(staff, { code__code_type: "charge", customer__id: customerIds[0]! })).toEqual([
      "11.00",
    ]);
    expect(await amounts(staff, { code__code_type: "payment", customer__id: customerIds[1]! })).toEqual([]);
  });

  it("filter by entry date as whole days, whatever today is", async () => {
    const all = (await staff.get("/api/transactions/", { limit: 100 })).body as Page;
    const days = all.results.map((entry) => entry.created.slice(0, 10)).sort();
    const first = days[0]!;
    const last = days[days.length - 1]!;
    const dayAfter = new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(await amounts(staff, { created__gte: first, created__lte: last })).toHaveLength(4);
    expect(await amounts(staff, { created__gte: dayAfter })).toEqual([]);
    expect(await amounts(staff, { created__lte: "2000-01-01" })).toEqual([]);
  });

  it("page through the same shape with other limits and offsets", async () => {
    const first = (await staff.get("/api/transactions/", { ordering: "amount", limit: 2 })).body as Page;
    expect(first.results.map((entry) => entry.amount)).toEqual(["11.00", "12.00"]);
    const second = (await staff.get("/api/transactions/", { ordering: "amount", limit: 2, offset: 2 }))
      .body as Page;
    expect(second.count).toBe(4);
    expect(second.results.map((entry) => entry.amount)).toEqual(["21.00", "22.00"]);
    const third = (await staff.get("/api/transactions/", { ordering: "amount", limit: 3, page: 2 }))
      .body as Page;
    expect(third.results.map((entry) => entry.amount)).toEqual(["22.00"]);
  });

  it("never show one client's entries to another client searching the same way", async () => {
    const other = testApp.client(fixture.b.ownerToken);
    expect(await amounts(other, {})).toEqual([]);
    expect(await amounts(other, { customer__id: customerIds[0]! })).toEqual([]);
    expect(await amounts(staff, {})).toHaveLength(4);
  });

  it("answer a page far past the end with no rows, whatever its offset comes to", async () => {
    const response = await staff.get("/api/transactions/", { page: 999_999_999_999_999, limit: 5000 });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ count: 4, results: [] });
  });
});
