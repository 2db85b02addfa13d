import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../test-support/test-app.js";
import { describeApi } from "./api-document.js";

type Schema = Record<string, unknown>;
type Parameter = { name: string; in: string; schema: Schema };
type Operation = { operationId: string; parameters: Parameter[]; responses: Record<string, unknown> };
type Document = { paths: Record<string, Record<string, Operation>>; components: Schema };

let document: Document;
const operations = (): [string, string, Operation][] =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]): [string, string, Operation] => [
      path,
      method,
      operation,
    ]),
  );

beforeAll(async () => {
  document = (await describeApi()) as Document;
});

/** Issue 40 point 7: an outside tester read ids, dates and limits as any string or number. */
describe("the document is as strict as the server", () => {
  it("types ids and id filters as integers from 1, limits with their bounds", () => {
    for (const [path, method, operation] of operations()) {
      for (const parameter of operation.parameters) {
        // record_id (the audit filter) names records of any kind, some not by number.
        if (!/(^|_)id$|^client$|^limit$/.test(parameter.name) || parameter.name === "record_id") continue;
        const where = `${method} ${path} ${parameter.name}`;
        // One id or a list of them (?id=1&id=2): each an integer.
        const members = (parameter.schema.anyOf as Schema[] | undefined) ?? [parameter.schema];
        for (const member of members) {
          const single = member.type === "array" ? (member.items as Schema) : member;
          expect(single, where).toMatchObject({ type: "integer" });
          expect(single.minimum, where).toBeGreaterThanOrEqual(parameter.name === "id" ? 1 : 0);
        }
      }
    }
    const list = document.paths["/api/customers/"]?.get;
    const byName = new Map(list?.parameters.map((parameter) => [parameter.name, parameter.schema]));
    expect(byName.get("client_id")).toMatchObject({ type: "integer", minimum: 1 });
    expect(byName.get("limit")).toMatchObject({ type: "integer", minimum: 1, maximum: 5000 });
    expect(byName.get("offset")).toMatchObject({ type: "integer", minimum: 0 });
  });

  it("gives dates their format and decimal inputs a pattern", () => {
    const reports = operations().flatMap(([, , operation]) => operation.parameters);
    const dates = reports.filter((parameter) => /date|as_of|__gte|__lte/.test(parameter.name));
    expect(dates.length).toBeGreaterThan(5);
    for (const parameter of dates)
      expect(parameter.schema.format ?? parameter.schema.pattern, parameter.name).toBeDefined();
    const create = document.paths["/api/transactions/"]?.post as unknown as {
      requestBody: { content: { "application/json": { schema: { properties: Record<string, Schema> } } } };
    };
    const body = create.requestBody.content["application/json"].schema.properties;
    expect(body.rate).toMatchObject({ type: "string", pattern: expect.any(String) as string });
    expect(new RegExp(String(body.rate?.pattern)).test("12.50")).toBe(true);
    expect(new RegExp(String(body.rate?.pattern)).test("1e3")).toBe(false);
  });

  it("documents the refusals each operation can answer", () => {
    for (const [path, method, operation] of operations()) {
      const statuses = Object.keys(operation.responses);
      const where = `${method} ${path}`;
      const signedIn = !("security" in operation);
      if (signedIn) expect(statuses, where).toEqual(expect.arrayContaining(["401", "403", "404"]));
      if (path.includes("{")) expect(statuses, where).toContain("404");
      if (signedIn && method !== "get") expect(statuses, where).toContain("409");
    }
    expect(Object.keys(document.paths["/api/auth-jwt/"]?.post?.responses ?? {})).toContain("429");
    expect(document.components.responses).toHaveProperty("Forbidden");
  });
});

describe("methods a path does not take", () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await startTestApp();
  });
  afterAll(async () => testApp?.close());

  /** fetch refuses to send TRACE, so a plain HTTP request. */
  function send(method: string, path: string): Promise<{ status: number; allow: string; body: string }> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(new URL(path, testApp.baseUrl), { method }, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, allow: String(response.headers.allow ?? ""), body }),
        );
      });
      request.on("error", reject);
      request.end();
    });
  }

  it("answers 405 with Allow and DRF's message, and 404 for paths that do not exist", async () => {
    const trace = await send("TRACE", "/api/codes/");
    expect(trace.status).toBe(405);
    expect(trace.allow).toBe("GET, HEAD, POST");
    expect(JSON.parse(trace.body)).toEqual({ detail: 'Method "TRACE" not allowed.' });
    const patch = await send("PATCH", "/api/codes/7/");
    expect(patch.status).toBe(405);
    expect(patch.allow).toBe("DELETE, GET, HEAD, PUT");
    expect((await send("TRACE", "/api/no-such-thing/")).status).toBe(404);
  });
});
