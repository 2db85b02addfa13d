import { rmSync } from "node:fs";
import { and, eq, isNull, sql } from "drizzle-orm";
import {
  NOTHING_TO_REBUILD_MESSAGE,
  POOL_FILES_MISSING_MESSAGE,
  poolPageSchema,
  productionRunSchema,
  type PoolRecord,
  type ProductionRun,
} from "@cyclebill/domain";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { clients, customers, pools, statements } from "../../db/tables.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt, dbText } from "../../db/row-schemas.js";
import { postInOneTransaction, serviceCharge } from "../../test-support/ledger-rows.js";
import { pollUntil } from "../../test-support/poll-until.js";
import {
  admin,
  clientId,
  fixture,
  runProductionCycle,
  testApp,
  useProductionApp,
} from "../../test-support/production-app.js";
import { createCodes } from "../../test-support/test-codes.js";
import { renewJobLease } from "../../jobs/index.js";
import { buildPool } from "./build-pool.js";
import { poolFiles } from "./pool-files.js";

// A failed or deleted pool is rebuilt from its run's statements (issue 30, point 5): a pool that
// ran out of retries stayed failed, and a deleted one was gone, with its statements in no pool.

const CYCLE = 12;
const RUN_DATE = "2025-06-12";

let run: ProductionRun;

async function runPools(): Promise<PoolRecord[]> {
  return poolPageSchema.parse((await admin.get("/api/pools/", { client_id: clientId })).body).results;
}

async function settledPools(count: number): Promise<PoolRecord[]> {
  return pollUntil(
    runPools,
    (found) => found.length === count && found.every((pool) => pool.state !== "building"),
    90_000,
  );
}

async function clientOverflows(): Promise<number> {
  const [client] = await testApp.db.select().from(clients).where(eq(clients.id, clientId));
  return Number(client?.numberBillOverflows);
}

useProductionApp({ chunkSize: 5, client: { normalCycle: CYCLE, dateLastBilling: "2025-05-12" } });

beforeAll(async () => {
  const made = await testApp.db
    .insert(customers)
    .values([
      { clientId, customerNo: 40, customerName: "Mo Mailed", address1: "40 Elm St" },
      { clientId, customerNo: 41, customerName: "Pia Pulled", address1: "41 Elm St", pullFlag: "P" },
    ])
    .returning({ id: customers.id });
  const { service } = await createCodes(testApp.db, clientId, {
    service: { code: 502, codeType: "charge", description: "Service" },
  });
  await postInOneTransaction(
    testApp.db,
    clientId,
    made.map((customer) => serviceCharge(customer.id, service, "12.50", "2025-06-02", "Monthly service")),
  );
  run = await runProductionCycle(admin, CYCLE, { run_date: RUN_DATE, client_ids: [clientId] }, 90_000);
  expect(run.status).toBe("done");
}, 180_000);

describe("rebuilding a run's pools", () => {
  it("rebuilds a failed pool and a deleted one from the run's statements", { timeout: 180_000 }, async () => {
    const before = await settledPools(2);
    expect(before.map((pool) => pool.state)).toEqual(["ready", "ready"]);
    const mail = before.find((pool) => pool.fulfilment === "mail");
    const pulled = before.find((pool) => pool.fulfilment === "pulled");
    if (!mail || !pulled) throw new Error(`pools: ${before.map((pool) => pool.fulfilment).join(", ")}`);
    // The mail pool ran out of retries (as after three expiries); the pulled pool was deleted.
    await testApp.db
      .update(pools)
      .set({ state: "failed", error: "job failed by timeout in active state" })
      .where(eq(pools.id, mail.id));
    expect((await admin.delete(`/api/pools/${pulled.pool_name}/`)).status).toBe(204);
    const orphans = await testApp.db
      .select({ id: statements.id })
      .from(statements)
      .where(and(eq(statements.clientId, clientId), isNull(statements.poolId)));
    expect(orphans.length).toBe(1);

    // The run offers the rebuild it would accept (issue 41 point 6), and the pools what they take.
    const offered = productionRunSchema.parse((await admin.get(`/api/productionruns/${run.id}/`)).body);
    expect(offered.actions).toEqual(["rebuild_pools"]);
    const failedPool = poolPageSchema
      .parse((await admin.get("/api/pools/")).body)
      .results.find((pool) => pool.id === mail.id);
    expect(failedPool?.actions).toEqual(["delete"]);

    // Only admins rebuild.
    const owner = testApp.client(fixture.a.ownerToken);
    expect((await owner.post(`/api/productionruns/${run.id}/rebuild_pools/`)).status).toBe(403);

    const rebuilt = await admin.post(`/api/productionruns/${run.id}/rebuild_pools/`);
    expect(rebuilt.status, rebuilt.text).toBe(202);
    const queued = poolPageSchema.parse(rebuilt.body);
    expect(queued.results.map((pool) => pool.pool_name).sort()).toEqual(
      [mail.pool_name, pulled.pool_name].sort(),
    );
    const after = await settledPools(2);
    expect(after.map((pool) => [pool.pool_name, pool.state, pool.statements, pool.error]).sort()).toEqual(
      before.map((pool) => [pool.pool_name, "ready", pool.statements, null]).sort(),
    );
    const [inNoPool] = await queryRows(
      testApp.db,
      sql`select count(*)::int as count from statements where client_id = ${clientId} and pool_id is null`,
      z.object({ count: dbInt }),
    );
    expect(inNoPool?.count).toBe(0);
    const zip = await fetch(`${testApp.baseUrl}/api/dailyproduction/download/pool/${mail.pool_name}/`, {
      headers: { authorization: `Bearer ${fixture.adminToken}` },
    });
    expect(zip.status).toBe(200);

    // Nothing left to rebuild: the run no longer offers it, and 409 says so; an unknown run is 404.
    const allReady = productionRunSchema.parse((await admin.get(`/api/productionruns/${run.id}/`)).body);
    expect(allReady.actions).toEqual([]);
    expect(after.every((pool) => pool.actions.join() === "download,delete")).toBe(true);
    expect(await admin.post(`/api/productionruns/${run.id}/rebuild_pools/`)).toMatchObject({
      status: 409,
      body: { detail: NOTHING_TO_REBUILD_MESSAGE },
    });
    expect((await admin.post(`/api/productionruns/987654/rebuild_pools/`)).status).toBe(404);
  });

  it(
    "rebuilds a ready pool whose zip vanished, and says so on its download (failed before: 409)",
    {
      timeout: 180_000,
    },
    async () => {
      const [mail] = (await settledPools(2)).filter((pool) => pool.fulfilment === "mail");
      if (!mail) throw new Error("no mail pool");
      const overflowsBefore = await clientOverflows();
      rmSync(poolFiles(testApp.config.dataDir, mail.pool_name).zip);
      expect(await admin.get(`/api/dailyproduction/download/pool/${mail.pool_name}/`)).toMatchObject({
        status: 404,
        body: { detail: POOL_FILES_MISSING_MESSAGE },
      });
      const rebuilt = await admin.post(`/api/productionruns/${run.id}/rebuild_pools/`);
      expect(rebuilt.status, rebuilt.text).toBe(202);
      expect(poolPageSchema.parse(rebuilt.body).results.map((pool) => pool.pool_name)).toEqual([
        mail.pool_name,
      ]);
      const after = await settledPools(2);
      expect(after.find((pool) => pool.id === mail.id)).toMatchObject({
        state: "ready",
        statements: mail.statements,
        pages: mail.pages,
      });
      const zip = await fetch(`${testApp.baseUrl}/api/dailyproduction/download/pool/${mail.pool_name}/`, {
        headers: { authorization: `Bearer ${fixture.adminToken}` },
      });
      expect(zip.status).toBe(200);
      expect((await zip.arrayBuffer()).byteLength).toBeGreaterThan(0);
      // Its overflow bills were counted by its first build, not again.
      expect(await clientOverflows()).toBe(overflowsBefore);
    },
  );

  it("renews the build's lease after each batch it draws", { timeout: 120_000 }, async () => {
    const [mail] = (await runPools()).filter((pool) => pool.fulfilment === "mail");
    if (!mail) throw new Error("no mail pool");
    await testApp.db.update(pools).set({ state: "building" }).where(eq(pools.id, mail.id));
    let renewals = 0;
    await buildPool(
      testApp.db,
      { dataDir: testApp.config.dataDir, publicUrl: "http://billing.test" },
      mail.id,
      async () => {
        renewals += 1;
      },
    );
    expect(renewals).toBe(1);
    expect((await admin.get(`/api/pools/${mail.pool_name}/`)).body).toMatchObject({ state: "ready" });
  });

  it("renews a job's lease in pg-boss's own table, only while the job is active", async () => {
    // A build 29 minutes into its 30-minute lease: renewing starts the clock again.
    const [job] = await queryRows(
      testApp.db,
      sql`insert into pgboss.job (name, data, state, started_on, expire_in)
          values ('pool-build', '{"poolId": 987654}', 'active', now() - interval '29 minutes', interval '30 minutes')
          returning id::text as id`,
      z.object({ id: dbText }),
    );
    if (!job) throw new Error("job not inserted");
    const left = async () =>
      (
        await queryRows(
          testApp.db,
          sql`select extract(epoch from (started_on + expire_in - now()))::int as seconds
              from pgboss.job where id = ${job.id}::uuid`,
          z.object({ seconds: dbInt }),
        )
      )[0]?.seconds ?? 0;
    expect(await left()).toBeLessThan(61);
    await renewJobLease(testApp.db, "pool-build", job.id);
    expect(await left()).toBeGreaterThan(1700);
    await testApp.db.execute(sql`update pgboss.job set state = 'completed' where id = ${job.id}::uuid`);
  });
});
