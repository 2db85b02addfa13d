import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient, TenantFixture, TestApp } from "../test-support/test-app.js";
import { startTenantApp } from "../test-support/tenant-app.js";

let testApp: TestApp;
let fixture: TenantFixture;
let owner: ApiClient;

type Code = {
  id: number;
  code: number;
  description: string;
  code_type: string;
  taxable: boolean;
  client: number;
};
type Page = { count: number; results: Code[] };

beforeAll(async () => {
  ({ testApp, fixture } = await startTenantApp());
  owner = testApp.client(fixture.a.ownerToken);
  for (let index = 0; index < 12; index += 1) {
    const response = await owner.post("/api/codes/", {
      code: 100 + index,
      description: `Service ${String.fromCharCode(76 - index)}`,
      code_type: index % 2 === 0 ? "charge" : "payment",
    });
    expect(response.status, response.text).toBe(201);
  }
});
afterAll(async () => testApp?.close());

describe("list conventions", () => {
  it("pages with limit and offset, or page, and counts every match", async () => {
    const first = await owner.get("/api/codes/", { limit: 5 });
    expect(first.status).toBe(200);
    const page = first.body as Page;
    expect(page.count).toBe(12);
    expect(page.results.map((code) => code.code)).toEqual([100, 101, 102, 103, 104]);
    const byOffset = (await owner.get("/api/codes/", { limit: 5, offset: 10 })).body as Page;
    expect(byOffset.results.map((code) => code.code)).toEqual([110, 111]);
    const byPage = (await owner.get("/api/codes/", { limit: 5, page: 2 })).body as Page;
    expect(byPage.results.map((code) => code.code)).toEqual([105, 106, 107, 108, 109]);
    const beyond = (await owner.get("/api/codes/", { limit: 5, page: 9 })).body as Page;
    expect(beyond).toEqual({ count: 12, results: [] });
  });

  it("orders by the named fields, descending with a leading minus", async () => {
    const descending = (await owner.get("/api/codes/", { ordering: "-code", limit: 3 })).body as Page;
    expect(descending.results.map((code) => code.code)).toEqual([111, 110, 109]);
    const byDescription = (await owner.get("/api/codes/", { ordering: "description", limit: 2 }))
      .body as Page;
    expect(byDescription.results.map((code) => code.description)).toEqual(["Service A", "Service B"]);
    const twoKeys = (await owner.get("/api/codes/", { ordering: "code_type,-code", limit: 2 })).body as Page;
    expect(twoKeys.results.map((code) => [code.code_type, code.code])).toEqual([
      ["charge", 110],
      ["charge", 108],
    ]);
  });

  it("rejects unknown ordering fields and bad paging values with 400 in DRF's shape", async () => {
    const unknown = await owner.get("/api/codes/", { ordering: "-password_hash" });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      ordering: [
        "Unknown ordering field: password_hash. Allowed: id, code, code_name, description, code_type, taxable.",
      ],
    });
    const badLimit = await owner.get("/api/codes/", { limit: "ten", offset: -1 });
    expect(badLimit.status).toBe(400);
    expect(badLimit.body).toEqual({
      limit: ["A valid integer is required."],
      offset: ["Ensure this value is greater than or equal to 0."],
    });
    expect((await owner.get("/api/codes/", { limit: 5001 })).body).toEqual({
      limit: ["Ensure this value is less than or equal to 5000."],
    });
  });

  it("filters by the resource's own keys", async () => {
    const payments = (await owner.get("/api/codes/", { code_type: "payment" })).body as Page;
    expect(payments.count).toBe(6);
    expect(new Set(payments.results.map((code) => code.code_type))).toEqual(new Set(["payment"]));
    expect((await owner.get("/api/codes/", { code_type: "bogus" })).status).toBe(400);
  });
});

describe("record conventions", () => {
  it("creates, reads, replaces with the full body and deletes", async () => {
    const created = await owner.post("/api/codes/", {
      code: 700,
      description: "Dump run",
      code_type: "charge",
    });
    expect(created.status).toBe(201);
    const code = created.body as Code;
    expect(code).toMatchObject({ code: 700, description: "Dump run", code_type: "charge", taxable: false });
    expect((await owner.get(`/api/codes/${code.id}/`)).body).toEqual(code);

    const replaced = await owner.put(
      `/api/codes/${code.id}/`,
      { code: 701, description: "Dump run (large)", code_type: "charge", taxable: true },
      { client_id: fixture.a.clientId },
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      id: code.id,
      code: 701,
      description: "Dump run (large)",
      taxable: true,
    });

    // PUT takes the full body: a partial one is refused and changes nothing.
    const partial = await owner.put(`/api/codes/${code.id}/`, { description: "Only this" });
    expect(partial.status).toBe(400);
    expect(partial.body).toMatchObject({
      code: ["This field is required."],
      code_type: ["This field is required."],
    });
    expect((await owner.get(`/api/codes/${code.id}/`)).body).toEqual(replaced.body);

    const deleted = await owner.delete(`/api/codes/${code.id}/`);
    expect(deleted.status).toBe(204);
    expect(await owner.get(`/api/codes/${code.id}/`)).toMatchObject({
      status: 404,
      body: { detail: "Not found." },
    });
    expect((await owner.delete(`/api/codes/${code.id}/`)).status).toBe(404);
  });

  it("answers unknown and malformed ids with 404 or 400, never 500", async () => {
    expect((await owner.get("/api/codes/99999999/")).status).toBe(404);
    expect(await owner.get("/api/codes/abc/")).toMatchObject({
      status: 400,
      body: { id: ["A valid integer is required."] },
    });
    expect((await owner.get("/api/codes/0/")).status).toBe(400);
    expect((await owner.get("/api/codes/99999999999999999999/")).status).toBe(400);
  });

  it("validates bodies with field messages, and keeps the spec's wording", async () => {
    const response = await owner.post("/api/codes/", {
      code: "x",
      description: "d".repeat(61),
      code_type: "gift",
      taxable: "maybe",
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: ["A valid integer is required."],
      description: [
        "Transaction description is too long. Please make sure it is under 60 characters to appear on the bill correctly.",
      ],
      code_type: ['"gift" is not a valid choice.'],
      taxable: ["Must be a valid boolean."],
    });
    const notAnObject = await owner.post("/api/codes/", [1, 2]);
    expect(notAnObject).toMatchObject({
      status: 400,
      body: { non_field_errors: ["Invalid data. Expected a dictionary, but got list."] },
    });
  });

  it("answers malformed JSON, wrong content types and oversized bodies with a clear 4xx", async () => {
    const malformed = await owner.request("POST", "/api/codes/", { rawBody: '{"code": 1,' });
    expect(malformed.status).toBe(400);
    expect((malformed.body as { detail: string }).detail).toMatch(/^JSON parse error/);
    const textBody = await owner.request("POST", "/api/codes/", {
      rawBody: "code=1",
      headers: { "content-type": "text/plain" },
    });
    expect(textBody.status).toBe(415);
    expect(textBody.body).toEqual({ detail: 'Unsupported media type "text/plain" in request.' });
    const huge = await owner.request("POST", "/api/codes/", {
      rawBody: JSON.stringify({ code: 1, description: "x".repeat(1024 * 1024), code_type: "charge" }),
    });
    expect(huge).toMatchObject({
      status: 413,
      body: { detail: "Request body is too large; the limit is 1 MB." },
    });
    const count = ((await owner.get("/api/codes/")).body as Page).count;
    expect(count).toBe(12);
  });

  it("refuses a duplicate code number with a field message", async () => {
    const duplicate = await owner.post("/api/codes/", {
      code: 100,
      description: "Again",
      code_type: "charge",
    });
    expect(duplicate).toMatchObject({
      status: 400,
      body: { code: ["A code with this number already exists."] },
    });
  });
});

describe("platform routes", () => {
  it("answers unknown API paths with a JSON 404, not the web app", async () => {
    const response = await owner.get("/api/no-such-thing/");
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: "Not found." });
  });

  it("serves an OpenAPI document generated from the route schemas", async () => {
    const response = await testApp.client().get("/api/docs");
    expect(response.status).toBe(200);
    const document = response.body as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe("3.0.3");
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/api/codes/", "/api/codes/{id}/", "/api/routes/"]),
    );
    expect(Object.keys(document.paths["/api/codes/{id}/"] ?? {})).toEqual(["get", "put", "delete"]);
    const create = document.paths["/api/codes/"]?.post as {
      requestBody: { content: Record<string, { schema: { required: string[] } }> };
    };
    expect(create.requestBody.content["application/json"]?.schema.required).toEqual(["code", "code_type"]);
  });

  it("tags every response with a request id", async () => {
    const response = await testApp.client().get("/api/health/");
    expect(response.body).toMatchObject({ status: "ok" });
    expect(response.headers.get("x-request-id")).toMatch(/[0-9a-f-]{36}/);
  });
});
