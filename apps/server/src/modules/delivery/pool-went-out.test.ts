import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { POOL_WITHDRAWN_MESSAGE } from "@cyclebill/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { DatabaseHandle } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt, dbText } from "../../db/row-schemas.js";
import { issueSessionToken } from "../auth/start-session.js";
import { createUser } from "../users/create-user.js";
import { holdCustomer, waitsOnLock } from "../../test-support/kill-test-bed.js";
import { createProductionClient } from "../../test-support/production-client.js";
import { startServerProcess, type ServerProcess } from "../../test-support/server-process.js";
import { httpClient, type ApiClient } from "../../test-support/test-app.js";
import { openTestDatabase } from "../../test-support/test-database.js";
import { startWorkerProcess, waitFor, type WorkerProcess } from "../../test-support/worker-process.js";

// Issue 40, points 2, 3 and 5, on PostgreSQL with two API processes and a worker (its queues keep
// their own expiries, as in production): a downloaded pool stays gone out when it is deleted; a
// download racing an undo answers 404, never 500 nor the withdrawn zip; a build whose worker was
// killed is taken over within the job's short expiry, not after 30 minutes.

const JWT_SECRET = "multi-process-test";
const CYCLE = 14;
const RUN_DATE = "2025-07-14";

describe.runIf(process.env.TEST_DB === "postgres")("pools that went out, under races and kill -9", () => {
  let database: DatabaseHandle;
  let databaseUrl = "";
  let dataDir = "";
  const apis: ServerProcess[] = [];
  const workers: WorkerProcess[] = [];
  let token = "";
  let clientNo = 7100;

  const api = (index: number): ApiClient => httpClient(apis[index]!.baseUrl, token);
  const startWorker = () => {
    const worker = startWorkerProcess(databaseUrl, { dataDir, chunkSize: 50 });
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "cyclebill-pool-went-out-"));
    database = await openTestDatabase();
    if (database.jobBackend.kind !== "postgres") throw new Error("needs PostgreSQL");
    databaseUrl = database.jobBackend.url;
    apis.push(...(await Promise.all([1, 2].map(() => startServerProcess(databaseUrl, { dataDir })))));
    startWorker();
    const admin = await createUser(database.db, {
      email: "admin@pool-went-out.example",
      password: null,
      isAdmin: true,
    });
    token = await issueSessionToken(database.db, JWT_SECRET, admin.id, {
      address: "127.0.0.1",
      userAgent: "test",
    });
  }, 120_000);

  afterAll(async () => {
    for (const child of [...apis, ...workers]) if (child.child.exitCode === null) child.child.kill("SIGKILL");
    await Promise.all([...apis, ...workers].map((child) => child.exited));
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const worker = () => workers[workers.length - 1];

  /** A new client of a few customers, its part of a run of the cycle finished (through API 0). */
  async function newClient(): Promise<number> {
    clientNo += 1;
    const { clientId } = await createProductionClient(database.db, {
      clientNo,
      cycle: CYCLE,
      dateLastBilling: "2025-06-14",
      customers: 4,
    });
    return clientId;
  }

  async function startRun(clientId: number): Promise<number> {
    const started = await api(0).request("POST", `/api/dailyproduction/cycle/${CYCLE}/`, {
      body: { run_date: RUN_DATE, client_ids: [clientId] },
    });
    expect(started.status, started.text).toBe(202);
    return (started.body as { id: number }).id;
  }

  async function runPart(clientId: number): Promise<{ runId: number; partId: number }> {
    const runId = await startRun(clientId);
    let status = "";
    await waitFor(
      "the run to finish, read through the other API process",
      async () => {
        status = ((await api(1).get(`/api/productionruns/${runId}/`)).body as { status: string }).status;
        return status === "done" || status === "failed";
      },
      worker(),
    );
    expect(status).toBe("done");
    const [part] = await queryRows(
      database.db,
      sql`select id from production_runs where client_id = ${clientId} and cycle_run_id = ${runId}`,
      z.object({ id: dbInt }),
    );
    if (!part) throw new Error("no run part");
    return { runId, partId: part.id };
  }

  const poolRowSchema = z.object({ id: dbInt, pool_name: dbText, state: dbText, builder: dbText.nullable() });
  async function poolOf(partId: number) {
    const [pool] = await queryRows(
      database.db,
      sql`select id, pool_name, state, builder from pools where production_run_id = ${partId} and fulfilment = 'mail'`,
      poolRowSchema,
    );
    return pool;
  }
  async function readyPool(partId: number) {
    await waitFor("the pool to be ready", async () => (await poolOf(partId))?.state === "ready", worker());
    const pool = await poolOf(partId);
    if (!pool) throw new Error("no pool");
    return pool;
  }

  /** Whether a statement like `text` waits on a lock held elsewhere. */
  async function waitingOn(text: string): Promise<boolean> {
    const [row] = await queryRows(
      database.db,
      sql`select count(*)::int as waiting from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and query ilike ${`%${text}%`}`,
      z.object({ waiting: dbInt }),
    );
    return (row?.waiting ?? 0) > 0;
  }

  const download = (index: number, name: string) =>
    api(index).get(`/api/dailyproduction/download/pool/${name}/`);
  const undo = (index: number, runId: number, clientId: number) =>
    api(index).request("POST", `/api/productionruns/${runId}/undo/`, { query: { client_id: clientId } });
  async function undoJobStatus(clientId: number, jobId: number): Promise<string> {
    let status = "";
    await waitFor(
      "the undo job to end",
      async () => {
        const job = await api(0).get(`/api/jobs/${jobId}/`, { client_id: clientId });
        status = (job.body as { status: string }).status;
        return status === "succeeded" || status === "failed";
      },
      worker(),
    );
    return status;
  }

  it(
    "refuses to undo a part whose downloaded pool was deleted, naming the pool (failed before: 202)",
    {
      timeout: 180_000,
    },
    async () => {
      const clientId = await newClient();
      const { runId, partId } = await runPart(clientId);
      const pool = await readyPool(partId);
      expect((await download(1, pool.pool_name)).status).toBe(200);
      expect((await api(0).delete(`/api/pools/${pool.pool_name}/`)).status).toBe(204);
      const refused = await undo(1, runId, clientId);
      expect(refused.status, refused.text).toBe(409);
      expect((refused.body as { went_out: string[] }).went_out).toContain(
        `pool ${pool.pool_name} downloaded`,
      );
      const [part] = await queryRows(
        database.db,
        sql`select undone_at is null as standing from production_runs where id = ${partId}`,
        z.object({ standing: z.boolean() }),
      );
      expect(part?.standing).toBe(true);
    },
  );

  it(
    "answers a download racing an undo with 404, never a 5xx nor the withdrawn zip (failed before: 500)",
    {
      timeout: 400_000,
    },
    async () => {
      const clientId = await newClient();
      const [firstCustomer] = await queryRows(
        database.db,
        sql`select id from customers where client_id = ${clientId} order by id limit 1`,
        z.object({ id: dbInt }),
      );
      const statuses: number[] = [];
      for (let trial = 0; trial < 3; trial++) {
        // Each trial runs the part again (an undone part's cycle and date can be run again).
        const { runId, partId } = await runPart(clientId);
        const pool = await readyPool(partId);
        // The undo job stops mid-transaction (its pools deleted, not committed) on a customer's lock.
        const hold = await holdCustomer(databaseUrl, clientId, firstCustomer?.id);
        const asked = await undo(0, runId, clientId);
        expect(asked.status, asked.text).toBe(202);
        await waitFor("the undo job to wait on the customer", () => waitsOnLock(database.db, "for update"));
        const downloads = [0, 1, 0, 1].map((index) => download(index, pool.pool_name));
        // The downloads reach the pool (or the run part) while the undo holds it, then it commits.
        await new Promise((resolve) => setTimeout(resolve, 500));
        await hold.release();
        const answers = await Promise.all(downloads);
        statuses.push(...answers.map((answer) => answer.status));
        expect(await undoJobStatus(clientId, (asked.body as { id: number }).id)).toBe("succeeded");
        // The part is undone: none of the downloads served its zip, and each said why.
        for (const answer of answers) {
          expect(answer.status, answer.text).toBe(404);
          expect(answer.body).toEqual({ detail: POOL_WITHDRAWN_MESSAGE });
        }
      }
      expect(statuses.filter((status) => status >= 500)).toEqual([]);
    },
  );

  it(
    "lets a download that came first stand: the undo waits for it, then refuses",
    {
      timeout: 180_000,
    },
    async () => {
      const clientId = await newClient();
      const { runId, partId } = await runPart(clientId);
      const pool = await readyPool(partId);
      // Both at once, through the two processes: whichever commits first, never a 5xx, and a part
      // whose zip was served is not undone.
      const [got, asked] = await Promise.all([download(0, pool.pool_name), undo(1, runId, clientId)]);
      expect([200, 404]).toContain(got.status);
      expect([202, 409]).toContain(asked.status);
      const undone =
        asked.status === 202 &&
        (await undoJobStatus(clientId, (asked.body as { id: number }).id)) === "succeeded";
      expect(got.status === 200 && undone).toBe(false);
    },
  );

  it(
    "takes over a build whose worker was killed, within the job's expiry (failed before: 30 minutes)",
    {
      timeout: 240_000,
    },
    async () => {
      // The pool's build is held by a lock on its row, taken as soon as the run's last step made the
      // pool (the build then waits to take the pool, or at its first progress write); then its worker dies.
      const locker = new pg.Client({ connectionString: databaseUrl });
      await locker.connect();
      try {
        // A small pool can be drawn before the lock is taken: then another client's run tries again.
        let clientId = 0;
        let locked: pg.QueryResult<{ id: string; production_run_id: string }> | undefined;
        for (let attempt = 0; attempt < 3 && !locked?.rows.length; attempt++) {
          if (locked) await locker.query("rollback");
          clientId = await newClient();
          await startRun(clientId);
          const poolRow = async () =>
            (await locker.query<{ id: string }>("select id from pools where client_id = $1", [clientId]))
              .rows[0];
          await waitFor("the run to make its pool", async () => (await poolRow()) !== undefined, worker());
          await locker.query("begin");
          locked = await locker.query<{ id: string; production_run_id: string }>(
            "select id, production_run_id from pools where client_id = $1 and state = 'building' for update",
            [clientId],
          );
        }
        if (!locked) throw new Error("no attempt");
        expect(locked.rows).toHaveLength(1);
        const partId = Number(locked.rows[0]?.production_run_id);
        await waitFor("the build to wait on its pool", () => waitingOn("update pools"), worker());
        const pool = await poolOf(partId);
        if (!pool) throw new Error("no pool");
        const killed = worker();
        killed?.child.kill("SIGKILL");
        expect(await killed?.exited).toEqual({ code: null, signal: "SIGKILL" });
        await locker.query("commit");
        startWorker();
        // waitFor gives up after 90 s: the build's expiry (30 s) and pg-boss's maintenance take it
        // over well inside that, where the old 30-minute lease never did.
        const ready = await readyPool(partId);
        // Another build took it over (the killed one's, if it had begun, is superseded).
        expect(ready.builder).not.toBeNull();
        expect(ready.builder).not.toBe(pool.builder);
        expect((await download(0, ready.pool_name)).status).toBe(200);
      } finally {
        await locker.end();
      }
    },
  );
});
