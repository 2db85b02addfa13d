import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { snapshotTables } from "../test-support/table-snapshot.js";
import {
  type ApiClient,
  type ApiResponse,
  type TenantFixture,
  type TestApp,
} from "../test-support/test-app.js";
import { startTenantApp } from "../test-support/tenant-app.js";
import { describeRoutes } from "./api-document.js";
import type { DocumentedRoute } from "./router.js";

/*
 * Issue 13: "a fuzz pass with NUL bytes and impossible dates shows 0 5xx on both databases."
 *
 * Every route of the route table gets requests built from its own input schemas: a plausible
 * value in each field (so the request reaches as far as it can), then at least one bad value put
 * in — a NUL in any string, query parameter, path segment or unknown key, an impossible date in
 * any date field. First a sweep that puts each bad value in each place once, then random mixes.
 * Every request holds a bad value, so none may succeed: no 5xx, no 2xx, and no row changes.
 */

type JsonSchema = Record<string, unknown>;
type Location = "query" | "body" | "params";
/** Where a bad value goes: a location and the key path inside it. */
type Slot = { location: Location; path: (string | number)[]; date: boolean };
type Injection = { slot: Slot; value: string };
type Inputs = Record<Location, Record<string, unknown>>;
/** base: the required fields only (an optional one, e.g. ordering, could stop a request early); full: every field. */
type Target = { route: DocumentedRoute; base: Inputs; full: Inputs; slots: Slot[] };

const NUL_VALUES = ["\u0000", "a\u0000b", "2024-01-31\u0000", "\u0000".repeat(3)];
const IMPOSSIBLE_DATES = ["2026-02-30", "2026-13-45", "2023-02-29", "2026-04-31", "0000-01-01", "2026-00-10"];
const RANDOM_REQUESTS = 600;

function toJson(schema: z.ZodType | undefined): JsonSchema | undefined {
  return schema ? (z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema) : undefined;
}

/** Date fields by their schema's description, or by a name that says date (the filters' too). */
function isDateField(name: string, schema: JsonSchema): boolean {
  const description = typeof schema.description === "string" ? schema.description : "";
  return description.startsWith("YYYY-MM-DD") || /date|Date|__gte$|__lte$|From$|To$/.test(name);
}

function membersOf(schema: JsonSchema): JsonSchema[] {
  const members = (schema.anyOf ?? schema.oneOf ?? []) as JsonSchema[];
  return members.filter((member) => member.type !== "null" && Object.keys(member).length > 0);
}

/** A value the schema probably accepts; ids point at client a's first records. */
function sample(schema: JsonSchema, name: string, clientId: number): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ("const" in schema) return schema.const;
  const [member] = membersOf(schema);
  if (member) return sample(member, name, clientId);
  if (isDateField(name, schema)) return "2024-01-31";
  if (name === "client" || name === "client_id") return clientId;
  switch (schema.type) {
    case "string":
      return schema.format === "email" ? "fuzz@example.com" : "x";
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? Math.max(schema.minimum, 1) : 1;
    case "boolean":
      return false;
    case "array": {
      const items = schema.items as JsonSchema | undefined;
      return items && items.type === "object" ? [sample(items, name, clientId)] : [];
    }
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [key, sample(property, key, clientId)]),
      );
    }
    default:
      return "x";
  }
}

/** Every place a bad value can go: each field (nested ones too), plus a key the schema does not know. */
function slotsOf(location: Location, value: unknown, schema: JsonSchema, path: (string | number)[]): Slot[] {
  const [member] = membersOf(schema);
  const resolved = member ?? schema;
  const name = String(path[path.length - 1] ?? "");
  if (Array.isArray(value)) {
    const items = (resolved.items ?? {}) as JsonSchema;
    return value.length > 0 ? slotsOf(location, value[0], items, [...path, 0]) : [];
  }
  if (typeof value === "object" && value !== null) {
    const properties = (resolved.properties ?? {}) as Record<string, JsonSchema>;
    return [
      { location, path: [...path, "fuzz_unknown"], date: false },
      ...Object.entries(value).flatMap(([key, item]) =>
        slotsOf(location, item, properties[key] ?? {}, [...path, key]),
      ),
    ];
  }
  return [{ location, path, date: isDateField(name, resolved) }];
}

function targetOf(route: DocumentedRoute, clientId: number): Target | undefined {
  const base: Inputs = { query: {}, body: {}, params: {} };
  const full: Inputs = { query: {}, body: {}, params: {} };
  const slots: Slot[] = [];
  for (const location of ["query", "body", "params"] as const) {
    const schema = toJson(route[location]);
    if (!schema) continue;
    full[location] = sample(schema, location, clientId) as Record<string, unknown>;
    const required = new Set([...((schema.required as string[] | undefined) ?? []), "client", "client_id"]);
    base[location] = Object.fromEntries(Object.entries(full[location]).filter(([key]) => required.has(key)));
    // Path segments are all there is in the URL: no unknown key to add there.
    const found = slotsOf(location, full[location], schema, []);
    slots.push(...(location === "params" ? found.filter((slot) => slot.path[0] !== "fuzz_unknown") : found));
  }
  // A route that parses nothing cannot be given a bad value (and would run for real).
  return slots.length > 0 ? { route, base, full, slots } : undefined;
}

function setAt(root: Record<string, unknown>, path: (string | number)[], value: string): void {
  let node: Record<string | number, unknown> = root;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = value;
}

function request(target: Target, injections: Injection[]): { method: string; path: string; body?: unknown } {
  const inputs = structuredClone(target.base);
  for (const { slot, value } of injections) {
    const [head] = slot.path;
    // A nested field needs its optional parent (e.g. a list of rows) from the full sample.
    if (slot.path.length > 1 && head !== undefined && !(head in inputs[slot.location])) {
      inputs[slot.location][head] = structuredClone(target.full[slot.location][head]);
    }
    setAt(inputs[slot.location], slot.path, value);
  }
  const url = target.route.url.replace(/:([A-Za-z_]+)/g, (_match, name: string) =>
    encodeURIComponent(String(inputs.params[name])),
  );
  const query = Object.entries(inputs.query)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join("&");
  return {
    method: target.route.method,
    path: query === "" ? url : `${url}?${query}`,
    body: target.route.body ? inputs.body : undefined,
  };
}

function valuesFor(slot: Slot): string[] {
  return slot.date ? [...NUL_VALUES, ...IMPOSSIBLE_DATES] : NUL_VALUES;
}

/** Each bad value in each place of each route, once. */
function sweep(targets: Target[]): { target: Target; injections: Injection[] }[] {
  return targets.flatMap((target) =>
    target.slots.flatMap((slot) =>
      valuesFor(slot)
        .filter((value, index) => slot.date || index < 2)
        .map((value) => ({ target, injections: [{ slot, value }] })),
    ),
  );
}

function injectionsArb(target: Target): fc.Arbitrary<Injection[]> {
  const injection = fc
    .constantFrom(...target.slots)
    .chain((slot) => fc.constantFrom(...valuesFor(slot)).map((value) => ({ slot, value })));
  return fc.array(injection, { minLength: 1, maxLength: 3 });
}

function isDrfErrorBody(body: unknown): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const entries = Object.entries(body);
  if (entries.length === 0) return false;
  if (typeof (body as { detail?: unknown }).detail === "string") return true;
  return entries.every(
    ([, messages]) => Array.isArray(messages) && messages.every((message) => typeof message === "string"),
  );
}

describe("NUL bytes and impossible dates on every route", () => {
  let testApp: TestApp;
  let fixture: TenantFixture;
  let actors: { name: string; api: ApiClient }[];
  let targets: Target[];

  beforeAll(async () => {
    ({ testApp, fixture } = await startTenantApp());
    actors = [
      { name: "admin", api: testApp.client(fixture.adminToken) },
      { name: "ownerA", api: testApp.client(fixture.a.ownerToken) },
    ];
    const routes = await describeRoutes();
    targets = routes.flatMap((route) => targetOf(route, fixture.a.clientId) ?? []);
    // Nearly every route parses something; the few that do not take no input at all.
    expect(targets.length).toBeGreaterThan(routes.length * 0.8);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const statuses = new Map<number, number>();

  async function send(
    actor: { name: string; api: ApiClient },
    target: Target,
    injections: Injection[],
  ): Promise<void> {
    const { method, path, body } = request(target, injections);
    const where = `${method} ${path} as ${actor.name} with ${JSON.stringify(injections.map((i) => i.value))}`;
    let response: ApiResponse;
    try {
      response = await actor.api.request(method, path, body === undefined ? {} : { body });
    } catch (error) {
      // A download that started and then broke reads as a failed fetch here.
      throw new Error(`${where} failed: ${String(error)}`);
    }
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    const answer = `${where} -> ${response.status}: ${response.text.slice(0, 300)}`;
    if (response.status >= 500) throw new Error(`server error: ${answer}`);
    if (response.status < 400) throw new Error(`a request with a bad value succeeded: ${answer}`);
    if (response.status === 400 && !isDrfErrorBody(response.body)) {
      throw new Error(`400 without a DRF error body: ${answer}`);
    }
  }

  it("answers 4xx, never 5xx, and writes nothing", async () => {
    const before = await snapshotTables(testApp.db);
    const [admin, owner] = actors as [(typeof actors)[number], (typeof actors)[number]];
    const failures: string[] = [];
    for (const { target, injections } of sweep(targets)) {
      // Admins reach every route; the owner reaches the tenant routes as a client's user does.
      for (const actor of target.route.access === "tenant" ? [admin, owner] : [admin]) {
        await send(actor, target, injections).catch((error: unknown) => failures.push(String(error)));
      }
    }
    expect(failures, failures.slice(0, 20).join("\n")).toEqual([]);
    await fc.assert(
      fc.asyncProperty(
        fc
          .tuple(fc.constantFrom(...targets), fc.constantFrom(...actors))
          .chain(([target, actor]) =>
            injectionsArb(target).map((injections) => ({ target, actor, injections })),
          ),
        async ({ target, actor, injections }) => send(actor, target, injections),
      ),
      { numRuns: RANDOM_REQUESTS },
    );
    const histogram = JSON.stringify(Object.fromEntries([...statuses].sort(([x], [y]) => x - y)));
    // Most requests were refused for their input, not turned away before it was read.
    expect(statuses.get(400) ?? 0, `statuses: ${histogram}`).toBeGreaterThan(
      [...statuses.values()].reduce((sum, n) => sum + n, 0) * 0.8,
    );
    expect(await snapshotTables(testApp.db)).toEqual(before);
  }, 300_000);
});
