import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantFixture, TestApp } from "../../test-support/test-app.js";
import { startTenantApp } from "../../test-support/tenant-app.js";

let testApp: TestApp;
let fixture: TenantFixture;

type Client = Record<string, unknown> & { id: number; client_name: string };

beforeAll(async () => {
  ({ testApp, fixture } = await startTenantApp());
  await testApp.db.execute(
    sql`update clients set bluepay_secret_key_encrypted = 'sealed-secret' where id = ${fixture.a.clientId}`,
  );
});
afterAll(async () => testApp?.close());

describe("GET /api/clients/", () => {
  it("shows admins every client, searchable by name or number, never with the gateway secret", async () => {
    const admin = testApp.client(fixture.adminToken);
    const all = (await admin.get("/api/clients/")).body as { count: number; results: Client[] };
    expect(all.count).toBe(2);
    const clientA = all.results.find((client) => client.id === fixture.a.clientId);
    expect(clientA).toMatchObject({ has_blue_pay_key: true, thirtyDayRateOrPercent: "rate", zip: "73301" });
    expect(JSON.stringify(all)).not.toContain("sealed-secret");
    expect(Object.keys(clientA ?? {})).not.toContain("bluepay_secret_key_encrypted");
    const found = (await admin.get("/api/clients/", { query: "client b" })).body as { results: Client[] };
    expect(found.results.map((client) => client.id)).toEqual([fixture.b.clientId]);
    expect((await admin.get("/api/clients/", { ordering: "secret" })).status).toBe(400);
  });

  it("shows others only their own client", async () => {
    const owner = testApp.client(fixture.b.ownerToken);
    const list = (await owner.get("/api/clients/")).body as { results: Client[] };
    expect(list.results.map((client) => client.id)).toEqual([fixture.b.clientId]);
    expect((await owner.get(`/api/clients/${fixture.a.clientId}/`)).status).toBe(404);
    expect((await owner.get(`/api/clients/${fixture.b.clientId}/`)).status).toBe(200);
    expect(
      ((await testApp.client(fixture.unattachedToken).get("/api/clients/")).body as { count: number }).count,
    ).toBe(0);
  });
});
