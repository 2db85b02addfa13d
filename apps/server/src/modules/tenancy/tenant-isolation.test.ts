import { describe, expect, it } from "vitest";
import { fixture, testApp, useTenantApp } from "../../test-support/tenant-app.js";
import { tenantResourceCases } from "../../test-support/tenant-resources.js";

// Written once for every tenant resource: add a resource to tenantResourceCases and it is covered.
let counter = 0;

useTenantApp();

type Record = { id: number };

describe.each(tenantResourceCases)("tenant isolation of $path", ({ path, validBody, ownersOnly }) => {
  // Staff of a resource for owners only are refused outright (403), which leaks nothing either.
  const refusedStaff = ownersOnly ? 403 : 404;
  const createIn = async (token: string, clientId = fixture.a.clientId): Promise<Record> => {
    const api = testApp.client(token);
    counter += 1;
    const response = await api.post(path, await validBody(counter, { api, clientId }));
    expect(response.status, response.text).toBe(201);
    return response.body as Record;
  };

  it("keeps a client's records invisible and untouchable for the other client's owner and staff", async () => {
    const record = await createIn(fixture.a.ownerToken);
    const before = await testApp.client(fixture.a.ownerToken).get(`${path}${record.id}/`);
    expect(before.status).toBe(200);

    for (const token of [fixture.b.ownerToken, fixture.b.staffToken]) {
      const other = testApp.client(token);
      const otherBody = await validBody((counter += 1), { api: other, clientId: fixture.b.clientId });
      if (token === fixture.b.staffToken && ownersOnly) {
        expect((await other.get(`${path}${record.id}/`)).status).toBe(refusedStaff);
        expect((await other.delete(`${path}${record.id}/`)).status).toBe(refusedStaff);
        expect((await other.put(`${path}${record.id}/`, otherBody)).status).toBe(refusedStaff);
        continue;
      }
      // Naming client a answers 404 and leaks nothing.
      expect((await other.get(path, { client_id: fixture.a.clientId })).status).toBe(404);
      expect((await other.get(`${path}${record.id}/`)).status).toBe(404);
      expect((await other.get(`${path}${record.id}/`, { client_id: fixture.a.clientId })).status).toBe(404);
      expect((await other.put(`${path}${record.id}/`, otherBody)).status).toBe(404);
      expect(
        (await other.put(`${path}${record.id}/`, otherBody, { client_id: fixture.a.clientId })).status,
      ).toBe(404);
      expect((await other.delete(`${path}${record.id}/`)).status).toBe(404);
      expect((await other.post(path, otherBody, { client_id: fixture.a.clientId })).status).toBe(404);
      expect((await other.post(path, { ...otherBody, client_id: fixture.a.clientId })).status).toBe(404);
      const response = await other.get(`${path}${record.id}/`);
      expect(response.body).toEqual({ detail: "Not found." });
      // Their own list never holds client a's record.
      const list = await other.get(path, { limit: 5000 });
      expect(list.status).toBe(200);
      expect((list.body as { results: Record[] }).results.map((row) => row.id)).not.toContain(record.id);
    }

    const after = await testApp.client(fixture.a.ownerToken).get(`${path}${record.id}/`);
    expect(after.body).toEqual(before.body);
  });

  it("locks owners and staff to their own client whatever client_id they send", async () => {
    const writer = ownersOnly ? fixture.a.ownerToken : fixture.a.staffToken;
    const record = await createIn(writer);
    const own = await testApp.client(writer).get(path, { client_id: fixture.a.clientId, limit: 5000 });
    expect(own.status).toBe(200);
    expect((own.body as { results: Record[] }).results.map((row) => row.id)).toContain(record.id);
    const created = await testApp.client(fixture.b.ownerToken).post(
      path,
      await validBody((counter += 1), {
        api: testApp.client(fixture.b.ownerToken),
        clientId: fixture.b.clientId,
      }),
    );
    expect(created.status).toBe(201);
    expect((created.body as { client: number }).client).toBe(fixture.b.clientId);
  });

  it("makes admins name a client, and lets them work in any client", async () => {
    const record = await createIn(fixture.a.ownerToken);
    const admin = testApp.client(fixture.adminToken);
    const withoutClient = await admin.get(path);
    expect(withoutClient.status).toBe(400);
    expect(withoutClient.body).toEqual({ client_id: ["Admins must name a client with client_id."] });
    expect((await admin.get(path, { client_id: 99_999_999 })).status).toBe(404);
    const listed = await admin.get(path, { client_id: fixture.a.clientId, limit: 5000 });
    expect((listed.body as { results: Record[] }).results.map((row) => row.id)).toContain(record.id);
    // The record belongs to client a: asking for it under client b is a 404.
    expect((await admin.get(`${path}${record.id}/`, { client_id: fixture.b.clientId })).status).toBe(404);
    expect((await admin.get(`${path}${record.id}/`, { client_id: fixture.a.clientId })).status).toBe(200);
    const created = await admin.post(
      path,
      await validBody((counter += 1), { api: admin, clientId: fixture.b.clientId }),
      {
        client_id: fixture.b.clientId,
      },
    );
    expect(created.status).toBe(201);
    expect((created.body as { client: number }).client).toBe(fixture.b.clientId);
  });

  it("refuses anonymous callers and users attached to no client", async () => {
    expect(await testApp.client().get(path, { client_id: fixture.a.clientId })).toMatchObject({
      status: 401,
      body: { detail: "Authentication credentials were not provided." },
    });
    expect((await testApp.client("not-a-token").get(path)).status).toBe(401);
    const unattached = await testApp.client(fixture.unattachedToken).get(path);
    expect(unattached.status).toBe(403);
    expect(
      (await testApp.client(fixture.unattachedToken).get(path, { client_id: fixture.a.clientId })).status,
    ).toBe(403);
  });
});
