import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { buildApp } from "../../app.js";
import { openDatabase, type DatabaseHandle } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbText } from "../../db/row-schemas.js";
import {
  createTenantFixture,
  httpClient,
  startTestApp,
  TEST_JWT_SECRET,
  type ApiClient,
  type TenantFixture,
  type TestApp,
} from "../../test-support/test-app.js";
import { verifyAccessToken } from "./access-token.js";

// Each API process keeps signed-in users in memory (auth-cache.ts). A change made anywhere else —
// another API process (its own connection on PostgreSQL), a worker, plain SQL — must end their access
// at once. On PostgreSQL, B is a second database handle (its own pool and listening connection) with
// its own server; on PGlite one process owns the database, so B is the same process and the change is
// made by plain SQL on connection A, outside any API code.
let a: TestApp;
let fixture: TenantFixture;
let handleB: DatabaseHandle | undefined;
let appB: FastifyInstance | undefined;
let baseUrlB: string;

async function userIdOf(token: string): Promise<number> {
  const claims = await verifyAccessToken(TEST_JWT_SECRET, token);
  if (!claims) throw new Error("bad token");
  return claims.userId;
}

function clientB(token: string): ApiClient {
  return httpClient(baseUrlB, token);
}

/** Asked twice: the second answer comes from B's memory. */
async function warm(client: ApiClient, path: string): Promise<number> {
  await client.get(path);
  return (await client.get(path)).status;
}

beforeAll(async () => {
  a = await startTestApp();
  fixture = await createTenantFixture(a);
  if (process.env.TEST_DB === "postgres") {
    const [row] = await queryRows(a.db, sql`select current_database() as name`, z.object({ name: dbText }));
    const url = new URL(process.env.TEST_DATABASE_URL ?? "");
    url.pathname = `/${row?.name ?? ""}`;
    handleB = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 3 });
    appB = await buildApp({ db: handleB.db, config: { ...a.config, logLevel: "error" } }, { logger: false });
    await appB.listen({ port: 0, host: "127.0.0.1" });
    const address = appB.server.address();
    if (!address || typeof address === "string") throw new Error("server B did not bind");
    baseUrlB = `http://127.0.0.1:${address.port}`;
  } else {
    baseUrlB = a.baseUrl;
  }
});

afterAll(async () => {
  await appB?.close();
  await handleB?.close();
  await a?.close();
});

describe("signed-in users kept in memory", () => {
  it("refuses at once in B a user deactivated in A", async () => {
    const owner = clientB(fixture.a.ownerToken);
    expect(await warm(owner, "/api/customers/")).toBe(200);
    const id = await userIdOf(fixture.a.ownerToken);
    await a.db.execute(sql`update users set is_active = false where id = ${id}`);
    expect(await owner.get("/api/customers/")).toMatchObject({
      status: 401,
      body: { detail: "User is inactive or deleted." },
    });
    await a.db.execute(sql`update users set is_active = true where id = ${id}`);
    expect((await owner.get("/api/customers/")).status).toBe(200);
  });

  it("applies at once in B a role changed in A", async () => {
    const admin = clientB(fixture.adminToken);
    expect(await warm(admin, "/api/pools/")).toBe(200);
    const adminId = await userIdOf(fixture.adminToken);
    await a.db.execute(sql`update users set is_admin = false where id = ${adminId}`);
    expect((await admin.get("/api/pools/")).status).toBe(403);

    // A staff member made owner of another client acts for that client at once.
    const staff = clientB(fixture.a.staffToken);
    const mine = (await warm(staff, "/api/customers/"), await staff.get("/api/customers/"));
    expect(mine.status).toBe(200);
    const staffId = await userIdOf(fixture.a.staffToken);
    await a.db.execute(
      sql`update users set client_id = ${fixture.b.clientId}, is_client_staff = false where id = ${staffId}`,
    );
    const moved = await staff.get("/api/customers/");
    expect(moved.status).toBe(200);
    expect(moved.body).not.toEqual(mine.body);
    expect((moved.body as { results: { client: number }[] }).results[0]?.client).toBe(fixture.b.clientId);
  });

  it("refuses at once in B a token logged out in A", async () => {
    const owner = clientB(fixture.b.ownerToken);
    expect(await warm(owner, "/api/me/")).toBe(200);
    expect((await a.client(fixture.b.ownerToken).post("/api/auth/logout/")).status).toBe(200);
    expect((await owner.get("/api/me/")).status).toBe(401);
  });

  it("refuses at once in B a session ended in A", async () => {
    const staff = clientB(fixture.b.staffToken);
    expect(await warm(staff, "/api/me/")).toBe(200);
    const listed = await a.client(fixture.b.staffToken).get("/api/sessions/");
    const [session] = (listed.body as { results: { id: number }[] }).results;
    expect((await a.client(fixture.b.staffToken).post(`/api/sessions/${session?.id}/end/`)).status).toBe(200);
    expect((await staff.get("/api/me/")).status).toBe(401);
  });
});
