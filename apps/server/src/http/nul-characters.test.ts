import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NUL_CHARACTER_MESSAGE } from "@cyclebill/domain";
import { codes, customers } from "../db/tables.js";
import type { ApiClient, TenantFixture, TestApp } from "../test-support/test-app.js";
import { startTenantApp } from "../test-support/tenant-app.js";

// Issue 13, point 3: PostgreSQL refuses U+0000 in text, so a NUL that reached it answered 500.

let testApp: TestApp;
let fixture: TenantFixture;
let owner: ApiClient;
let customerId: number;
let codeId: number;

beforeAll(async () => {
  ({ testApp, fixture } = await startTenantApp());
  owner = testApp.client(fixture.a.ownerToken);
  const [customer] = await testApp.db
    .insert(customers)
    .values({ clientId: fixture.a.clientId, customerNo: 901, customerName: "Nul Test" })
    .returning({ id: customers.id });
  const [code] = await testApp.db
    .insert(codes)
    .values({ clientId: fixture.a.clientId, code: 901, description: "Mowing", codeType: "charge" })
    .returning({ id: codes.id });
  customerId = customer!.id;
  codeId = code!.id;
});
afterAll(async () => testApp?.close());

describe("a NUL character in request input", () => {
  it("is a 400 naming the field in a body", async () => {
    const group = await owner.post("/api/routes/", { route_name: "r\u0000" });
    expect(group.status, group.text).toBe(400);
    expect(group.body).toEqual({ route_name: [NUL_CHARACTER_MESSAGE] });

    const entry = await owner.post("/api/transactions/", {
      customer: customerId,
      code: codeId,
      rate: "1",
      description: "a\u0000b",
    });
    expect(entry.status, entry.text).toBe(400);
    expect(entry.body).toEqual({ description: [NUL_CHARACTER_MESSAGE] });

    const registration = await testApp.client().post("/api/register/", {
      firstName: "Ri\u0000ta",
      lastName: "Novak",
      email: "nul@example.com",
      password: "a good password",
      confirmPassword: "a good password",
    });
    expect(registration.status, registration.text).toBe(400);
    expect(registration.body).toEqual({ firstName: [NUL_CHARACTER_MESSAGE] });
  });

  it("is a 400 naming the parameter in a query string", async () => {
    const search = await owner.get("/api/customers/?query=%00");
    expect(search.status, search.text).toBe(400);
    expect(search.body).toEqual({ query: [NUL_CHARACTER_MESSAGE] });
    // Also where the schema would have thrown the value away (an unknown key).
    const unknown = await owner.get("/api/codes/?nope=a%00");
    expect(unknown.status, unknown.text).toBe(400);
    expect(unknown.body).toEqual({ nope: [NUL_CHARACTER_MESSAGE] });
  });

  it("names parameters called like an object's own properties (constructor, __proto__)", async () => {
    // Found by the conventions fuzz test: the error map read Object.prototype.constructor and failed.
    const constructor = await owner.get("/api/codes/?constructor=%00");
    expect(constructor.status, constructor.text).toBe(400);
    expect(constructor.body).toEqual({ constructor: [NUL_CHARACTER_MESSAGE] });
    const proto = await owner.get("/api/codes/?__proto__=%00&toString=a%00");
    expect(proto.status, proto.text).toBe(400);
    expect(proto.text).toContain("toString");
  });

  it("names nested fields and keys that hold one", async () => {
    const batch = await owner.post("/api/transactionsroutes/", {
      code: codeId,
      amount: "1",
      transaction_type: "bulk",
      customer_amounts: [{ customer: customerId, amount: "1", note: "x\u0000" }],
    });
    expect(batch.status, batch.text).toBe(400);
    expect(batch.body).toEqual({ customer_amounts: [`0.note: ${NUL_CHARACTER_MESSAGE}`] });
    const key = await owner.post("/api/routes/", { route_name: "fine", "a\u0000": 1 });
    expect(key.status, key.text).toBe(400);
    expect(key.body).toEqual({ "a\\u0000": [NUL_CHARACTER_MESSAGE] });
  });

  it("leaves text without one alone", async () => {
    const group = await owner.post("/api/routes/", { route_name: "r\u0001 \u00e9" });
    expect(group.status, group.text).toBe(201);
  });
});
