import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../../db/query-rows.js";
import { dbText } from "../../db/row-schemas.js";
import { describeRoutes } from "../../http/api-document.js";
import type { DocumentedRoute } from "../../http/router.js";
import { pdfText } from "../../test-support/pdf-text.js";
import { tenantResourceCases } from "../../test-support/tenant-resources.js";
import type { TenantFixture, TestApp } from "../../test-support/test-app.js";
import { startTenantApp } from "../../test-support/tenant-app.js";

/*
 * Every tenant route of the route table — production, pools, jobs, payments and reports as much as
 * the CRUD resources — called by client b's owner and staff with client a's record ids in every id
 * position (path, query and body), and with client_id naming client a. Nothing of client a may come
 * back (no 5xx, no 2xx carrying client a's data), and no row of client a may change.
 * FUZZ_LONG=1 repeats the sweep until at least 100,000 requests were sent.
 */

type JsonSchema = Record<string, unknown>;
const nameRowSchema = z.object({ name: dbText });
/** A row as its JSON text (row_to_json(t)::text). */
const jsonTextRowSchema = z.object({ row: dbText });
const LONG = process.env.FUZZ_LONG === "1";
const LONG_REQUESTS = 100_000;
const CLIENT_FIELDS = new Set(["client", "client_id"]);

function toJson(schema: z.ZodType | undefined): JsonSchema | undefined {
  return schema ? (z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema) : undefined;
}

/** A value for the field: client fields name the caller's client (or a, to aim at it), integers the foreign id. */
function fill(schema: JsonSchema, name: string, foreignId: number, clientId: number): unknown {
  if (CLIENT_FIELDS.has(name)) return clientId;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ("const" in schema) return schema.const;
  const members = ((schema.anyOf ?? schema.oneOf ?? []) as JsonSchema[]).filter(
    (member) => member.type !== "null" && Object.keys(member).length > 0,
  );
  if (members[0]) return fill(members[0], name, foreignId, clientId);
  const description = typeof schema.description === "string" ? schema.description : "";
  if (description.startsWith("YYYY-MM-DD") || /date|Date/.test(name)) return "2025-01-31";
  switch (schema.type) {
    case "string":
      return /(^|_)id$|Id$/.test(name) ? `${clientId}-${foreignId}` : "x";
    case "integer":
    case "number":
      return foreignId;
    case "boolean":
      return false;
    case "array": {
      const items = (schema.items ?? {}) as JsonSchema;
      return [fill(items, name, foreignId, clientId)];
    }
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [key, fill(property, key, foreignId, clientId)]),
      );
    }
    default:
      return foreignId;
  }
}

function requestOf(route: DocumentedRoute, foreignId: number, clientId: number) {
  const inputs = Object.fromEntries(
    (["query", "body", "params"] as const).map((location) => {
      const schema = toJson(route[location]);
      return [location, schema ? (fill(schema, "", foreignId, clientId) as Record<string, unknown>) : {}];
    }),
  ) as Record<"query" | "body" | "params", Record<string, unknown>>;
  const url = route.url.replace(/:([A-Za-z_]+)/g, (_match, name: string) =>
    encodeURIComponent(String(inputs.params[name] ?? foreignId)),
  );
  const query = Object.fromEntries(Object.entries(inputs.query).map(([key, value]) => [key, String(value)]));
  return { method: route.method, url, query, body: route.body ? inputs.body : undefined };
}

describe("client b's users aimed at client a's records on every tenant route", () => {
  let testApp: TestApp;
  let fixture: TenantFixture;
  let routes: DocumentedRoute[];
  let foreignIds: number[];
  let markers: string[];

  /** Client a's rows in every tenant table, as text. */
  async function clientARows(): Promise<string[]> {
    const tables = await queryRows(
      testApp.db,
      sql`select table_name::text as name from information_schema.columns
          where table_schema = 'public' and column_name = 'client_id' order by 1`,
      nameRowSchema,
    );
    const rows: string[] = [];
    for (const { name } of tables) {
      const found = await queryRows(
        testApp.db,
        sql`select row_to_json(t)::text as row from ${sql.identifier(name)} t
            where client_id = ${fixture.a.clientId} order by 1`,
        jsonTextRowSchema,
      );
      rows.push(...found.map((entry) => `${name}: ${entry.row}`));
    }
    const client = await queryRows(
      testApp.db,
      sql`select row_to_json(c)::text as row from clients c where id = ${fixture.a.clientId}`,
      jsonTextRowSchema,
    );
    return [...rows, ...client.map((entry) => entry.row)];
  }

  beforeAll(async () => {
    // With the job engine, so routes that start jobs answer as in production.
    ({ testApp, fixture } = await startTenantApp({ jobs: {} }));
    const ownerA = testApp.client(fixture.a.ownerToken);
    for (const [index, resource] of tenantResourceCases.entries()) {
      const created = await ownerA.post(
        resource.path,
        await resource.validBody(900 + index, { api: ownerA, clientId: fixture.a.clientId }),
      );
      expect(created.status, `${resource.path}: ${created.text}`).toBe(201);
    }
    routes = (await describeRoutes()).filter((route) => route.access === "tenant");
    // The ids of client a's first records of every table (ids are per table, so they overlap).
    const tables = await queryRows(
      testApp.db,
      sql`select c.table_name::text as name from information_schema.columns c
          join information_schema.columns i on i.table_name = c.table_name and i.table_schema = c.table_schema
            and i.column_name = 'id'
          where c.table_schema = 'public' and c.column_name = 'client_id' order by 1`,
      nameRowSchema,
    );
    const ids = new Set<number>();
    for (const { name } of tables) {
      const rows = await queryRows(
        testApp.db,
        sql`select id::text as id from ${sql.identifier(name)} where client_id = ${fixture.a.clientId}
            order by id limit 3`,
        z.object({ id: dbText }),
      );
      for (const row of rows) ids.add(Number(row.id));
    }
    foreignIds = [...ids].sort((x, y) => x - y);
    const [client] = await queryRows(
      testApp.db,
      sql`select client_name from clients where id = ${fixture.a.clientId}`,
      z.object({ client_name: dbText }),
    );
    const names = await queryRows(
      testApp.db,
      sql`select customer_name from customers where client_id = ${fixture.a.clientId}`,
      z.object({ customer_name: dbText }),
    );
    markers = [client?.client_name ?? "", ...names.map((row) => row.customer_name)].filter(Boolean);
  }, 120_000);

  afterAll(async () => testApp?.close());

  it(
    "answers no 5xx, leaks nothing and changes no row of client a",
    { timeout: LONG ? 3_600_000 : 300_000 },
    async () => {
      expect(routes.length).toBeGreaterThan(50);
      expect(foreignIds.length).toBeGreaterThan(2);
      const before = await clientARows();
      const actors: [string, string][] = [
        ["ownerB", fixture.b.ownerToken],
        ["staffB", fixture.b.staffToken],
      ];
      const leaked = new RegExp(`"client(_id)?"\\s*:\\s*${fixture.a.clientId}\\b`);
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      let sent = 0;
      do {
        for (const route of routes)
          for (const foreignId of foreignIds)
            for (const [actorName, token] of actors)
              for (const clientId of [fixture.b.clientId, fixture.a.clientId]) {
                const api = testApp.client(token);
                const { method, url, query, body } = requestOf(route, foreignId, clientId);
                const where = `${method} ${url} ${JSON.stringify(query)} as ${actorName}`;
                const response = await api.request(
                  method,
                  url,
                  body === undefined ? { query } : { query, body },
                );
                sent += 1;
                statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
                if (response.status >= 500) failures.push(`5xx: ${where} -> ${response.text.slice(0, 200)}`);
                if (response.status >= 300) continue;
                let text = response.text;
                if ((response.headers.get("content-type") ?? "").includes("pdf")) {
                  const address = new URL(url, testApp.baseUrl);
                  for (const [key, value] of Object.entries(query)) address.searchParams.set(key, value);
                  const raw = await fetch(address, { method, headers: { authorization: `Bearer ${token}` } });
                  const bytes = await raw.arrayBuffer();
                  text = await pdfText(new Uint8Array(bytes)).catch(() => "");
                }
                // Naming client a is ignored or refused for b's users; either way nothing of a comes back.
                if (leaked.test(text) || markers.some((marker) => text.includes(marker)))
                  failures.push(`leak: ${where} -> ${text.slice(0, 200)}`);
              }
      } while (LONG && sent < LONG_REQUESTS);
      const changed = (await clientARows()).filter((row) => !before.includes(row));
      const histogram = JSON.stringify(Object.fromEntries([...statuses].sort(([x], [y]) => x - y)));
      console.log(
        `cross-tenant requests: ${sent} on ${routes.length} routes; 5xx ${failures.filter((f) => f.startsWith("5xx")).length}, ` +
          `leaks ${failures.filter((f) => !f.startsWith("5xx")).length}, changed rows of client a ${changed.length}; statuses ${histogram}`,
      );
      expect(failures.slice(0, 30)).toEqual([]);
      expect(changed).toEqual([]);
    },
  );
});
