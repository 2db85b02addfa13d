import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customers } from "../../db/tables.js";
import type { TenantFixture, TestApp } from "../../test-support/test-app.js";
import { startTenantApp } from "../../test-support/tenant-app.js";

let testApp: TestApp;
let fixture: TenantFixture;

type Matches = { count: number; results: { customer_no: number; customer_name: string }[] };

beforeAll(async () => {
  ({ testApp, fixture } = await startTenantApp());
  await testApp.db.insert(customers).values([
    ...Array.from({ length: 130 }, (_, index) => ({
      clientId: fixture.a.clientId,
      customerNo: 2000 + index,
      customerName: `Smith ${index}`,
      lastName: "Smith",
    })),
    {
      clientId: fixture.a.clientId,
      customerNo: 7777,
      customerName: "Acme_Widgets 100%",
      companyName: "Acme",
    },
    { clientId: fixture.a.clientId, customerNo: 43, customerName: "Archived Smith", deleted: true },
    { clientId: fixture.b.clientId, customerNo: 44, customerName: "Smith of client B" },
  ]);
});
afterAll(async () => testApp?.close());

describe("GET /api/typeahead/customers/", () => {
  it("matches names and numbers, at most 100, within the client, without archived customers", async () => {
    const api = testApp.client(fixture.a.ownerToken);
    const smiths = (await api.get("/api/typeahead/customers/", { query: "smith" })).body as Matches;
    expect(smiths.count).toBe(100);
    expect(smiths.results[0]?.customer_no).toBe(2000);
    expect(
      smiths.results.some(
        (match) => match.customer_name.includes("client B") || match.customer_name.startsWith("Archived"),
      ),
    ).toBe(false);
    const byNumber = (await api.get("/api/typeahead/customers/", { query: "777" })).body as Matches;
    expect(byNumber.results.map((match) => match.customer_no)).toEqual([7777]);
    // LIKE wildcards in the query are taken literally.
    const literal = (await api.get("/api/typeahead/customers/", { query: "_widgets 100%" })).body as Matches;
    expect(literal.results.map((match) => match.customer_no)).toEqual([7777]);
    expect(((await api.get("/api/typeahead/customers/", { query: "zzz" })).body as Matches).count).toBe(0);
    // Any letter case, any name column (the company here), one customer among many.
    const company = (await api.get("/api/typeahead/customers/", { query: "aCmE" })).body as Matches;
    expect(company.results.map((match) => match.customer_no)).toEqual([7777]);
    const one = (await api.get("/api/typeahead/customers/", { query: "SMITH 129" })).body as Matches;
    expect(one.results.map((match) => match.customer_no)).toEqual([2129]);
  });

  it("keeps other clients out", async () => {
    const other = testApp.client(fixture.b.staffToken);
    expect(
      (await other.get("/api/typeahead/customers/", { client_id: fixture.a.clientId, query: "smith" }))
        .status,
    ).toBe(404);
    const own = (await other.get("/api/typeahead/customers/", { query: "smith" })).body as Matches;
    expect(own.results.map((match) => match.customer_no)).toEqual([44]);
    expect(
      (await testApp.client(fixture.adminToken).get("/api/typeahead/customers/", { query: "smith" })).status,
    ).toBe(400);
  });
});
