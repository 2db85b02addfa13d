import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { snapshotTables } from "../test-support/table-snapshot.js";
import { tenantResourceCases } from "../test-support/tenant-resources.js";
import type { ApiClient, ApiResponse, TenantFixture, TestApp } from "../test-support/test-app.js";
import { startTenantApp } from "../test-support/tenant-app.js";
import {
  checkResponse,
  fuzzCaseArb,
  materialize,
  type Actor,
  type ResourceState,
  type TenantLetter,
} from "../test-support/conventions-fuzz/fuzz-cases.js";
import { forgedTokens } from "../test-support/conventions-fuzz/fuzz-payloads.js";
import type { JsonObject } from "../test-support/conventions-fuzz/fuzz-values.js";

/*
 * "A 1,000-request fuzz test of malformed bodies and query strings against the
 * list/detail/create/update/delete conventions yields no 5xx and no changed rows."
 *
 * Every generated request is malformed or unauthorised, never a valid write, so the database
 * must be exactly as before afterwards. How each write is kept from succeeding:
 *  - POST and PUT: the body is always invalid for the resource, whoever sends it and whatever
 *    the content type (fastify parses application/json in any letter case and with any
 *    charset, strips a BOM and keeps the last of duplicate keys; other types answer 415 today,
 *    but get the same texts in case one is ever parsed). Every body text, read by any of
 *    those rules, is either no JSON at all, JSON that is not an object (input schemas are
 *    objects), or an object in which at least one field of a valid body holds a value of the
 *    wrong JSON structure (an object or array where the valid body has a scalar, a scalar
 *    where it has an object). Extra, missing and other wrongly typed
 *    fields are only added on top of that break. Body parsing precedes tenant resolution and
 *    the write, so such a request ends in 400/401/413/415 before anything is written.
 *  - DELETE has no body, so the id carries the guarantee: a tenant user only gets ids that do
 *    not exist in their own client (the other client's ids, absent ids, malformed ids); the
 *    admin, who may name any client with client_id, only gets absent or malformed ids; callers
 *    who cannot write at all (anonymous, forged token, user of no client) get any id. Numeric
 *    forms ("0007", " 7 ", "%37") are only made from ids allowed for that caller, and random
 *    strings that read as an integer are filtered out.
 *  - GET never writes, so it gets everything, including existing ids and valid paging.
 * As a net under that reasoning, a write answered 2xx fails the property at once (and
 * shrinks), and the table snapshot catches anything else.
 */

/** FUZZ_LONG=1: at least 10,000 malformed requests per resource. */
const LONG = process.env.FUZZ_LONG === "1";
const REQUESTS = LONG ? 10_000 * tenantResourceCases.length : 1000;

const LONG_TIMEOUT = LONG ? 4 * 3_600_000 : 120_000;

describe("conventions under fuzzing", () => {
  let testApp: TestApp;
  let fixture: TenantFixture;
  let clients: Record<Actor, ApiClient>;
  let resources: ResourceState[];
  let forged: string[];

  beforeAll(async () => {
    ({ testApp, fixture } = await startTenantApp());
    clients = {
      ownerA: testApp.client(fixture.a.ownerToken),
      staffA: testApp.client(fixture.a.staffToken),
      ownerB: testApp.client(fixture.b.ownerToken),
      staffB: testApp.client(fixture.b.staffToken),
      admin: testApp.client(fixture.adminToken),
      anonymous: testApp.client(),
      unattached: testApp.client(fixture.unattachedToken),
      garbage: testApp.client(),
    };
    forged = await forgedTokens(fixture);
    resources = [];
    for (const [index, resourceCase] of tenantResourceCases.entries()) {
      const n = 100 * (index + 1);
      // A couple of records in client a (and one in b, as another tenant's id to aim at).
      const seeds: [TenantLetter, ApiClient, number][] = [
        ["a", clients.ownerA, n + 1],
        ["a", clients.ownerA, n + 2],
        ["b", clients.ownerB, n + 3],
      ];
      for (const [letter, api, seed] of seeds) {
        const created = await api.post(
          resourceCase.path,
          await resourceCase.validBody(seed, { api, clientId: fixture[letter].clientId }),
        );
        expect(created.status, `${resourceCase.path}: ${created.text}`).toBe(201);
      }
      // Templates are made now, not during the run: validBody may create records it needs.
      const templates: JsonObject[] = [];
      for (const seed of [n + 11, n + 12, n + 13]) {
        templates.push(
          await resourceCase.validBody(seed, { api: clients.ownerA, clientId: fixture.a.clientId }),
        );
      }
      expect(templates.every((template) => Object.keys(template).length > 0)).toBe(true);
      resources.push({
        path: resourceCase.path,
        templates,
        lenientFields: resourceCase.lenientFields ?? [],
        ids: { a: [], b: [] },
      });
    }
    // Ids as the API lists them once every resource is made: a later resource's validBody creates
    // records of earlier ones (a transaction's code), and an id missing here would be aimed at as
    // "absent" and really deleted.
    for (const resource of resources) {
      for (const letter of ["a", "b"] as const) {
        const page = await clients[letter === "a" ? "ownerA" : "ownerB"].get(resource.path, { limit: 5000 });
        expect(page.status).toBe(200);
        resource.ids[letter] = (page.body as { results: { id: number }[] }).results.map((row) => row.id);
      }
      expect(resource.ids.a.length).toBeGreaterThanOrEqual(2);
    }
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it(
    `answers ${REQUESTS} malformed requests without a 5xx and without changing a row`,
    async () => {
      const before = await snapshotTables(testApp.db);
      const statuses = new Map<number, number>();
      let sent = 0;
      await fc.assert(
        fc.asyncProperty(fuzzCaseArb(fixture, resources, forged), async (fuzzCase) => {
          const { method, path, options } = materialize(fuzzCase);
          sent += 1;
          let response: ApiResponse;
          try {
            response = await clients[fuzzCase.actor].request(method, path, options);
          } catch (error) {
            throw new Error(`${method} ${path.slice(0, 300)} as ${fuzzCase.actor} failed: ${String(error)}`);
          }
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          checkResponse(fuzzCase, method, path, response);
        }),
        { numRuns: REQUESTS },
      );
      expect(sent).toBe(REQUESTS);
      const after = await snapshotTables(testApp.db);
      const changedTables = Object.keys(before).filter(
        (table) => JSON.stringify(before[table]) !== JSON.stringify(after[table]),
      );
      console.log(
        `malformed requests: ${sent} on ${resources.length} resources; 5xx ${[...statuses].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0)}; ` +
          `tables changed ${changedTables.length}; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
      );
      // The run reached past authentication and validation, not just the router's 404.
      const histogram = JSON.stringify(Object.fromEntries([...statuses].sort(([x], [y]) => x - y)));
      expect([...statuses.keys()], `statuses: ${histogram}`).toEqual(
        expect.arrayContaining([200, 400, 401, 403, 404]),
      );
      expect(after).toEqual(before);
    },
    LONG_TIMEOUT,
  );
});
