import { and, asc, eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../db/query-rows.js";
import { jobRunChunks } from "../db/tables.js";
import { ledgerMismatches } from "../modules/ledger/ledger-mismatches.js";
import { getProductionRun } from "../modules/production/production-runs.js";
import { startProductionRun } from "../modules/production/start-production.js";
import { createUser } from "../modules/users/create-user.js";
import { createProductionClient } from "../test-support/production-client.js";
import { startKillTestBed, type KillTestBed } from "../test-support/kill-test-bed.js";
import { waitFor } from "../test-support/worker-process.js";

// One client's run is split in chunks that several workers take at once: while one worker's chunk
// waits (here on a customer a test transaction holds), the other worker does the remaining chunks.
// Statement numbers stay unique and gapless. PostgreSQL only (several processes on one database).

const CUSTOMERS = 20;
const CHUNK_SIZE = 5; // 4 chunks
const CYCLE = 13;
const RUN_DATE = "2025-06-13";

describe.runIf(process.env.TEST_DB === "postgres")("a client's chunks on two workers at once", () => {
  let bed: KillTestBed;

  beforeAll(async () => {
    bed = await startKillTestBed({ name: "parallel-chunks" });
  });
  afterAll(async () => bed?.close());

  it(
    "does the other chunks while one waits, and numbers every statement once",
    { timeout: 180_000 },
    async () => {
      const { db } = bed.database;
      const { clientId, customerIds: ids } = await createProductionClient(db, {
        clientNo: 4646,
        cycle: CYCLE,
        dateLastBilling: "2025-05-13",
        customers: CUSTOMERS,
      });
      const admin = await createUser(db, { email: "admin@parallel.example", password: null, isAdmin: true });

      // Hold a customer of chunk 0 (the first one taken): its worker waits there.
      const locker = new pg.Client({ connectionString: bed.databaseUrl });
      await locker.connect();
      await locker.query("begin");
      await locker.query("select id from customers where client_id = $1 and id = $2 for update", [
        clientId,
        ids[2],
      ]);

      const run = await startProductionRun(
        db,
        { ...admin, username: admin.email, isAdmin: true, isClientStaff: false, clientId: null },
        { cycle: CYCLE, runDate: RUN_DATE, chunkSize: CHUNK_SIZE },
        async (tx, steps) => {
          for (const step of steps)
            await bed.jobs.enqueue("production-run", step.payload, { executor: tx, priority: step.priority });
        },
      );
      const jobRunId = run.clients[0]?.job_run_id;
      if (!jobRunId) throw new Error("no client part");
      const chunkNumbers = async () =>
        (
          await db
            .select({ chunkNo: jobRunChunks.chunkNo })
            .from(jobRunChunks)
            .where(and(eq(jobRunChunks.clientId, clientId), eq(jobRunChunks.runId, jobRunId)))
            .orderBy(asc(jobRunChunks.chunkNo))
        ).map((row) => row.chunkNo);

      for (let index = 0; index < 2; index++) bed.startWorker({ expireSeconds: 120 });
      // Chunks 1-3 are done by the free worker while chunk 0 still waits on the held customer.
      await waitFor(
        "chunks 1 to 3 done while chunk 0 waits",
        async () => (await chunkNumbers()).length === 3,
        bed.workers[0],
      );
      expect(await chunkNumbers()).toEqual([1, 2, 3]);

      await locker.query("commit");
      await locker.end();
      await waitFor(
        "the run to finish",
        async () => !["queued", "running"].includes((await getProductionRun(db, run.id)).status),
        bed.workers[1],
      );
      expect(await getProductionRun(db, run.id)).toMatchObject({ status: "done", done: CUSTOMERS });
      const numbers = await queryRows<{ statement_num: number }>(
        db,
        sql`select statement_num from statements where client_id = ${clientId} order by statement_num`,
      );
      expect(numbers.map((row) => row.statement_num)).toEqual(
        Array.from({ length: CUSTOMERS }, (_, index) => index + 1),
      );
      expect(await ledgerMismatches(db, { clientId })).toEqual([]);
    },
  );
});
