import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../db/query-rows.js";
import { dbInt, dbText } from "../db/row-schemas.js";
import { customers, jobRunChunks } from "../db/tables.js";
import { readJobRun } from "../modules/jobs/job-runs.js";
import { startLedgerCheck } from "../modules/ledger-check/ledger-check.js";
import {
  createOwnedClient,
  doneChunks,
  enqueueSteps,
  holdCustomer,
  startKillTestBed,
  waitsOnLock,
  type KillTestBed,
} from "../test-support/kill-test-bed.js";
import { AUSTIN_ADDRESS } from "../test-support/mailing-address.js";
import { waitFor } from "../test-support/worker-process.js";

// A real worker process (src/worker.ts, as `npm run worker` runs it) is killed with SIGKILL while
// it works on a chunk; a second worker must finish the run without doing any chunk twice.
// Several processes share one database only on PostgreSQL, so this runs with TEST_DB=postgres.

const CUSTOMERS = 40;
const CHUNK_SIZE = 5; // 8 chunks
const BLOCKED_CHUNK = 4; // the first worker finishes chunks 0-3, then waits on a lock in chunk 4
const EXPIRE_SECONDS = 4;

describe.runIf(process.env.TEST_DB === "postgres")("a worker process killed with kill -9 mid-job", () => {
  let bed: KillTestBed;
  const startWorker = () => bed.startWorker({ expireSeconds: EXPIRE_SECONDS });

  beforeAll(async () => {
    bed = await startKillTestBed({ name: "worker-kill" });
  });
  afterAll(async () => bed?.close());

  it(
    "is picked up again after its job expires and finishes every chunk exactly once",
    { timeout: 180_000 },
    async () => {
      const { db } = bed.database;
      const { client, tenant } = await createOwnedClient(
        db,
        { clientNo: 4242, clientName: "Kill test", ...AUSTIN_ADDRESS },
        "owner@kill.example",
      );
      await db.insert(customers).values(
        Array.from({ length: CUSTOMERS }, (_, index) => ({
          clientId: client.id,
          customerNo: index + 1,
          customerName: `Customer ${index + 1}`,
        })),
      );
      const ids = (
        await db
          .select({ id: customers.id })
          .from(customers)
          .where(eq(customers.clientId, client.id))
          .orderBy(asc(customers.id))
      ).map((row) => row.id);

      // Hold a customer of the blocked chunk: the worker's FOR SHARE waits there, mid-chunk.
      const held = await holdCustomer(bed.databaseUrl, client.id, ids[BLOCKED_CHUNK * CHUNK_SIZE + 2]);

      const run = await startLedgerCheck(
        db,
        tenant,
        { chunkSize: CHUNK_SIZE },
        enqueueSteps(bed.jobs, "ledger-check"),
      );
      const key = { clientId: client.id, runId: run.id };
      const chunkNumbers = () => doneChunks(db, key);

      const first = startWorker();
      await waitFor(
        "the first worker to block in chunk 4",
        async () => (await chunkNumbers()).length === BLOCKED_CHUNK && (await waitsOnLock(db, "for share")),
        first,
      );
      expect(await chunkNumbers()).toEqual([0, 1, 2, 3]);
      expect(await readJobRun(db, key)).toMatchObject({
        status: "running",
        total: CUSTOMERS,
        done: 20,
        chunkCount: 8,
      });

      first.child.kill("SIGKILL");
      expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });
      await held.release();

      const second = startWorker();
      await waitFor(
        "the run to finish",
        async () => (await readJobRun(db, key))?.status !== "running",
        second,
      );

      const finished = await readJobRun(db, key);
      expect(finished).toMatchObject({
        status: "succeeded",
        total: CUSTOMERS,
        done: CUSTOMERS,
        failed: 0,
        chunksDone: 8,
        chunkCount: 8,
      });
      expect(finished?.result).toEqual({
        customers_checked: CUSTOMERS,
        mismatches: [],
        statement_mismatches: [],
      });
      // One marker per chunk, and the done counts add up to the customers: no chunk counted twice.
      expect(await chunkNumbers()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      const chunks = await db.select().from(jobRunChunks).where(eq(jobRunChunks.runId, run.id));
      expect(chunks.reduce((sum, chunk) => sum + chunk.done, 0)).toBe(CUSTOMERS);

      // pg-boss's own record: the killed chunk's job was retried after it expired (once), the
      // chunks done before the kill were never run again.
      const attempts = await queryRows(
        db,
        sql`select (data->>'chunkNo')::int as chunk_no, state::text as state, retry_count
          from pgboss.job where name = 'ledger-check' and data->>'step' = 'chunk'
            and (data->>'runId')::bigint = ${run.id}
          order by chunk_no`,
        z.object({ chunk_no: dbInt, state: dbText, retry_count: dbInt }),
      );
      expect(attempts.map((job) => [job.chunk_no, job.state, job.retry_count])).toEqual([
        [0, "completed", 0],
        [1, "completed", 0],
        [2, "completed", 0],
        [3, "completed", 0],
        [4, "completed", 1],
        [5, "completed", 0],
        [6, "completed", 0],
        [7, "completed", 0],
      ]);

      // SIGTERM stops a worker gracefully.
      second.child.kill("SIGTERM");
      expect(await second.exited).toEqual({ code: 0, signal: null });
    },
  );
});
