import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codes } from "../../db/tables.js";
import type { ApiClient, TenantFixture, TestApp } from "../../test-support/test-app.js";
import { startTenantApp } from "../../test-support/tenant-app.js";
import { postTransaction } from "../transactions/post-transaction.js";
import { businessToday } from "../../clock.js";

let testApp: TestApp;
let fixture: TenantFixture;
let owner: ApiClient;
type Code = { id: number; code: number; description: string; code_type: string; taxable: boolean };

beforeAll(async () => {
  ({ testApp, fixture } = await startTenantApp());
  owner = testApp.client(fixture.a.ownerToken);
  await testApp.db.insert(codes).values([
    { clientId: fixture.a.clientId, code: -1, description: "Late fee", codeType: "charge" },
    { clientId: fixture.a.clientId, code: 100, description: "Lawn mowing", codeType: "charge" },
    { clientId: fixture.a.clientId, code: 110, description: "Hedge trimming", codeType: "charge" },
    { clientId: fixture.a.clientId, code: 200, description: "Check payment", codeType: "payment" },
    { clientId: fixture.b.clientId, code: 100, description: "Other client's mowing", codeType: "charge" },
  ]);
});
afterAll(async () => testApp?.close());

async function codeByNumber(number: number): Promise<Code> {
  const page = (await owner.get("/api/codes/", { limit: 100 })).body as { results: Code[] };
  const found = page.results.find((code) => code.code === number);
  if (!found) throw new Error(`code ${number} missing`);
  return found;
}

describe("system codes", () => {
  it("cannot be changed or deleted", async () => {
    const system = await codeByNumber(-1);
    const refused = {
      status: 400,
      body: { non_field_errors: ["System codes cannot be changed or deleted."] },
    };
    expect(await owner.put(`/api/codes/${system.id}/`, { code: 1, code_type: "charge" })).toMatchObject(
      refused,
    );
    expect(await owner.delete(`/api/codes/${system.id}/`)).toMatchObject(refused);
    expect((await owner.post("/api/codes/", { code: -5, code_type: "charge" })).body).toEqual({
      code: ["Ensure this value is greater than or equal to 0."],
    });
  });
});

describe("POST /api/codes/mass-update/", () => {
  it("sets code_type and taxable on the selected codes, ignoring an empty code_type", async () => {
    const mowing = await codeByNumber(100);
    const hedges = await codeByNumber(110);
    const updated = await owner.post("/api/codes/mass-update/", {
      ids: [mowing.id, hedges.id],
      code_type: "debit",
      taxable: true,
    });
    expect(updated.status).toBe(200);
    expect(
      (updated.body as { results: Code[] }).results.map((code) => [code.code, code.code_type, code.taxable]),
    ).toEqual([
      [100, "debit", true],
      [110, "debit", true],
    ]);
    const typeKept = await owner.post("/api/codes/mass-update/", {
      ids: [mowing.id],
      code_type: "",
      taxable: false,
    });
    expect((typeKept.body as { results: Code[] }).results[0]).toMatchObject({
      code_type: "debit",
      taxable: false,
    });
  });

  it("is all or nothing: a system code, another client's code or a bad id changes nothing", async () => {
    const mowing = await codeByNumber(100);
    const system = await codeByNumber(-1);
    expect(
      (await owner.post("/api/codes/mass-update/", { ids: [mowing.id, system.id], code_type: "info" }))
        .status,
    ).toBe(400);
    const otherClients = (
      (await testApp.client(fixture.b.ownerToken).get("/api/codes/")).body as { results: Code[] }
    ).results;
    expect(
      (
        await owner.post("/api/codes/mass-update/", {
          ids: [mowing.id, otherClients[0]!.id],
          code_type: "info",
        })
      ).status,
    ).toBe(404);
    expect((await codeByNumber(100)).code_type).toBe("debit");
    expect((await owner.post("/api/codes/mass-update/", { ids: [], code_type: "info" })).status).toBe(400);
    expect(
      (await owner.post("/api/codes/mass-update/", { ids: [mowing.id], code_type: "bogus" })).status,
    ).toBe(400);
  });
});

describe("GET /api/typeahead/codes/", () => {
  it("returns only the client's codes above 0, by number or description", async () => {
    const all = (await owner.get("/api/typeahead/codes/")).body as { results: Code[] };
    expect(all.results.map((code) => code.code)).toEqual([100, 110, 200]);
    const byText = (await owner.get("/api/typeahead/codes/", { query: "hedge" })).body as { results: Code[] };
    expect(byText.results.map((code) => code.code)).toEqual([110]);
    const byNumber = (await owner.get("/api/typeahead/codes/", { query: "2" })).body as { results: Code[] };
    expect(byNumber.results.map((code) => code.code)).toEqual([200]);
    expect((await owner.get("/api/typeahead/codes/", { query: "late" })).body).toEqual({
      count: 0,
      results: [],
    });
  });
});

describe("GET /api/pdf/code-report/", () => {
  it("downloads the Codes Report as a PDF named with the date", async () => {
    const customer = (await owner.get("/api/typeahead/customers/")).body as { results: { id: number }[] };
    const mowing = await codeByNumber(100);
    await postTransaction(
      testApp.db,
      { clientId: fixture.a.clientId },
      {
        customerId: customer.results[0]!.id,
        codeId: mowing.id,
        description: "Mowing",
        rate: "45.00",
      },
    );
    const response = await fetch(`${testApp.baseUrl}/api/pdf/code-report/`, {
      headers: { authorization: `Bearer ${fixture.a.ownerToken}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    const today = businessToday();
    expect(response.headers.get("content-disposition")).toContain(`filename="Codes Report ${today}.pdf"`);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(bytes.length).toBeGreaterThan(1000);
    expect(
      (
        await testApp
          .client(fixture.b.ownerToken)
          .get("/api/pdf/code-report/", { client_id: fixture.a.clientId })
      ).status,
    ).toBe(404);
  });
});
