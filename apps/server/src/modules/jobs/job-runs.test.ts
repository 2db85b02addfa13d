import { jobRunSchema, ledgerCheckResultSchema, type JobRun } from "@cyclebill/domain";
import { and, eq, sql } from "drizzle-orm";
import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customers, jobRunChunks, users } from "../../db/tables.js";
import { pgliteJobDb } from "../../jobs/sql-adapters.js";
import type { ApiClient, TenantFixture, TestApp } from "../../test-support/test-app.js";
import { startTenantApp } from "../../test-support/tenant-app.js";
import { createJobRun } from "./job-runs.js";
import { pollUntil } from "../../test-support/poll-until.js";

// The job engine runs in the test's own process here (as `npm start` does on PGlite); the
// kill -9 test beside this file runs a separate worker process on PostgreSQL.

const CHUNK_SIZE = 4;
const EXTRA_CUSTOMERS = 9; // + the fixture's 2 = 11 customers: chunks of 4, 4 and 3

let testApp: TestApp;
let fixture: TenantFixture;
let admin: ApiClient;
let ownerA: ApiClient;

beforeAll(async () => {
  ({ testApp, fixture } = await startTenantApp({ jobs: { chunkSize: CHUNK_SIZE } }));
  admin = testApp.client(fixture.adminToken);
  ownerA = testApp.client(fixture.a.ownerToken);
  await testApp.db.insert(customers).values(
    Array.from({ length: EXTRA_CUSTOMERS }, (_, index) => ({
      clientId: fixture.a.clientId,
      customerNo: 100 + index,
      customerName: `Job customer ${index}`,
    })),
  );
});

afterAll(async () => {
  await testApp?.close();
});

async function waitForRun(
  client: ApiClient,
  id: number,
  query: Record<string, number> = {},
): Promise<JobRun> {
  return pollUntil(
    async () => {
      const response = await client.get(`/api/jobs/${id}/`, query);
      expect(response.status).toBe(200);
      return jobRunSchema.parse(response.body);
    },
    (run) => run.status === "succeeded" || run.status === "failed",
    30_000,
  );
}

describe("job runs", () => {
  it("checks the books as a chunked job, reports progress and finds an injected mismatch", async () => {
    const [broken] = await testApp.db
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.clientId, fixture.a.clientId), eq(customers.customerNo, 105)));
    if (!broken) throw new Error("customer 105 missing");
    // A balance with no ledger behind it: what the check exists to find.
    await testApp.db.execute(
      sql`update customers set total_balance = 12.34 where client_id = ${fixture.a.clientId} and id = ${broken.id}`,
    );

    const started = await ownerA.post("/api/jobs/ledger-check/");
    expect(started.status).toBe(202);
    const queued = jobRunSchema.parse(started.body);
    expect(queued).toMatchObject({ kind: "ledger-check", client_id: fixture.a.clientId, done: 0 });

    const run = await waitForRun(ownerA, queued.id);
    expect(run).toMatchObject({
      status: "succeeded",
      total: 11,
      done: 11,
      failed: 0,
      step: "finished",
      error: null,
    });
    expect(run.started_at).not.toBeNull();
    expect(run.finished_at).not.toBeNull();
    const result = ledgerCheckResultSchema.parse(run.result);
    expect(result.customers_checked).toBe(11);
    expect(result.mismatches).toEqual([
      expect.objectContaining({ customer_id: broken.id, total_balance: "12.34", ledger_sum: "0" }),
    ]);

    const chunks = await testApp.db
      .select({ chunkNo: jobRunChunks.chunkNo, done: jobRunChunks.done })
      .from(jobRunChunks)
      .where(and(eq(jobRunChunks.clientId, fixture.a.clientId), eq(jobRunChunks.runId, run.id)))
      .orderBy(jobRunChunks.chunkNo);
    expect(chunks).toEqual([
      { chunkNo: 0, done: 4 },
      { chunkNo: 1, done: 4 },
      { chunkNo: 2, done: 3 },
    ]);

    // Repair the balance so that this file leaves balanced books behind.
    await testApp.db.execute(
      sql`update customers set total_balance = 0 where client_id = ${fixture.a.clientId} and id = ${broken.id}`,
    );
  });

  it("lets an admin check any client (client_id) and lists, filters and orders its runs", async () => {
    const started = await admin.post("/api/jobs/ledger-check/", undefined, { client_id: fixture.b.clientId });
    expect(started.status).toBe(202);
    const run = await waitForRun(admin, jobRunSchema.parse(started.body).id, {
      client_id: fixture.b.clientId,
    });
    expect(run).toMatchObject({ status: "succeeded", total: 2, done: 2 });
    expect(ledgerCheckResultSchema.parse(run.result)).toEqual({
      customers_checked: 2,
      mismatches: [],
      statement_mismatches: [],
    });

    const list = await admin.get("/api/jobs/", { client_id: fixture.b.clientId, ordering: "-id" });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, results: [{ id: run.id, kind: "ledger-check" }] });
    const filtered = await admin.get("/api/jobs/", { client_id: fixture.b.clientId, status: "failed" });
    expect(filtered.body).toEqual({ count: 0, results: [] });
    const badOrdering = await admin.get("/api/jobs/", { client_id: fixture.b.clientId, ordering: "secret" });
    expect(badOrdering.status).toBe(400);
    expect(badOrdering.body).toHaveProperty("ordering");
  });

  it("keeps runs within their tenant: another client's run is a 404, staff may not start a check", async () => {
    const started = await admin.post("/api/jobs/ledger-check/", undefined, { client_id: fixture.b.clientId });
    const runOfB = jobRunSchema.parse(started.body);
    await waitForRun(admin, runOfB.id, { client_id: fixture.b.clientId });

    const foreign = await ownerA.get(`/api/jobs/${runOfB.id}/`);
    expect(foreign).toMatchObject({ status: 404, body: { detail: "Not found." } });
    const namedForeign = await ownerA.get(`/api/jobs/${runOfB.id}/`, { client_id: fixture.b.clientId });
    expect(namedForeign.status).toBe(404);
    // An admin reading it under the wrong client gets the same 404.
    const wrongClient = await admin.get(`/api/jobs/${runOfB.id}/`, { client_id: fixture.a.clientId });
    expect(wrongClient).toMatchObject({ status: 404, body: { detail: "Not found." } });
    const listA = await ownerA.get("/api/jobs/");
    expect((listA.body as { results: JobRun[] }).results.map((run) => run.id)).not.toContain(runOfB.id);

    const staff = await testApp.client(fixture.a.staffToken).post("/api/jobs/ledger-check/");
    expect(staff.status).toBe(403);
    const adminWithoutClient = await admin.post("/api/jobs/ledger-check/");
    expect(adminWithoutClient.status).toBe(400);
    expect(adminWithoutClient.body).toHaveProperty("client_id");
    const anonymous = await testApp.client().get(`/api/jobs/${runOfB.id}/`);
    expect(anonymous.status).toBe(401);
  });

  it("fails the run when its job runs out of retries (here: a payload this version cannot parse)", async () => {
    const [owner] = await testApp.db
      .select()
      .from(users)
      .where(eq(users.clientId, fixture.a.clientId))
      .limit(1);
    if (!owner) throw new Error("owner missing");
    const run = await createJobRun(
      testApp.db,
      { clientId: fixture.a.clientId, user: { ...owner, isAdmin: false, clientId: fixture.a.clientId } },
      "ledger-check",
    );
    // A second pg-boss client on the same database sends what enqueueJob would refuse, as a job
    // queued by an older version might look after a deploy.
    const common = { migrate: false, supervise: false, schedule: false } as const;
    const backend = testApp.jobBackend;
    const boss = new PgBoss(
      backend.kind === "pglite"
        ? { ...common, db: pgliteJobDb(backend.client) }
        : { ...common, connectionString: backend.url, max: 1 },
    );
    await boss.start();
    try {
      await boss.send(
        "ledger-check",
        { step: "chunk", clientId: fixture.a.clientId, runId: run.id, chunkNo: 0, customerIds: [] },
        { retryLimit: 0 },
      );
    } finally {
      await boss.stop({ graceful: false, close: true });
    }
    const failed = await waitForRun(ownerA, run.id);
    expect(failed).toMatchObject({ status: "failed", step: "failed", result: null });
    expect(failed.error).toContain("ledger-check: the payload does not parse");
    expect(failed.error).toContain("customerIds");
    expect(failed.finished_at).not.toBeNull();
  });
});
