import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../db/query-rows.js";
import { dbInt, dbText } from "../db/row-schemas.js";
import { clients } from "../db/tables.js";
import { readJobRun } from "../modules/jobs/job-runs.js";
import { ledgerMismatches } from "../modules/ledger/ledger-mismatches.js";
import { getProductionRun } from "../modules/production/production-runs.js";
import {
  doneChunks,
  holdCustomer,
  productionRunEnded,
  startBedProductionRun,
  startKillTestBed,
  waitsOnLock,
  type KillTestBed,
} from "../test-support/kill-test-bed.js";
import { postInOneTransaction, serviceCharge } from "../test-support/ledger-rows.js";
import { createProductionClient } from "../test-support/production-client.js";
import { waitFor } from "../test-support/worker-process.js";

// A production run whose worker process is killed with SIGKILL in the middle of a chunk (after
// earlier chunks posted and made statements): a second worker finishes it, and no customer has a
// recurring charge, a late fee or a statement twice; the books balance. PostgreSQL only (several
// processes on one database), like worker-kill.test.ts.

const CUSTOMERS = 40;
const CHUNK_SIZE = 5; // 8 chunks
const BLOCKED_CHUNK = 4; // the first worker waits on a lock in chunk 4 and finishes the others
/** A worker runs two chunks at once (production-run.job.ts): the other loop goes on past chunk 4. */
const DONE_BEFORE_KILL = [0, 1, 2, 3, 5, 6, 7];
const EXPIRE_SECONDS = 4;
const CYCLE = 5;
const RUN_DATE = "2025-03-05";

describe.runIf(process.env.TEST_DB === "postgres")("a production run killed with kill -9 mid-chunk", () => {
  let bed: KillTestBed;
  const startWorker = () => bed.startWorker({ expireSeconds: EXPIRE_SECONDS });

  beforeAll(async () => {
    bed = await startKillTestBed({ name: "production-kill" });
  });
  afterAll(async () => bed?.close());

  it("resumes in a second worker and posts nothing twice", { timeout: 180_000 }, async () => {
    const { db } = bed.database;
    // Every customer has a monthly charge; a third owe 40.00 from 44 days ago (the 30-day tier).
    const {
      clientId,
      codeId,
      customerIds: ids,
    } = await createProductionClient(db, {
      clientNo: 4343,
      cycle: CYCLE,
      dateLastBilling: "2025-02-05",
      customers: CUSTOMERS,
      client: {
        clientName: "Production kill test",
        financeFlag: "1",
        thirtyDayRateOrPercent: "rate",
        dayCharge30Day: "5.00",
      },
    });
    const overdue = ids.filter((_, index) => index % 3 === 0);
    await postInOneTransaction(
      db,
      clientId,
      overdue.map((customerId) => serviceCharge(customerId, codeId, "40.00", "2025-01-20")),
    );

    // Hold a customer of the blocked chunk: the worker's lock of its chunk's customers waits there.
    const held = await holdCustomer(bed.databaseUrl, clientId, ids[BLOCKED_CHUNK * CHUNK_SIZE + 2]);

    const run = await startBedProductionRun(bed, "admin@kill.example", {
      cycle: CYCLE,
      runDate: RUN_DATE,
      chunkSize: CHUNK_SIZE,
    });
    const jobRunId = run.clients[0]?.job_run_id;
    if (!jobRunId) throw new Error("no client part");
    const key = { clientId, runId: jobRunId };
    const chunkNumbers = () => doneChunks(db, key);
    const postedByCustomer = () =>
      queryRows(
        db,
        sql`select c.id::text as customer_id,
                 (select count(*)::int from transactions t where t.client_id = c.client_id and t.customer_id = c.id
                    and t.transaction_type = 'recurring') as recurring,
                 (select count(*)::int from transactions t where t.client_id = c.client_id and t.customer_id = c.id
                    and t.transaction_type = 'late_fee') as late_fees,
                 (select count(*)::int from statements s where s.client_id = c.client_id and s.customer_id = c.id)
                   as statements
            from customers c where c.client_id = ${clientId} order by c.id`,
        z.object({ customer_id: dbText, recurring: dbInt, late_fees: dbInt, statements: dbInt }),
      );

    const first = startWorker();
    await waitFor(
      "the first worker to block in chunk 4 and finish the others",
      async () =>
        (await chunkNumbers()).length === DONE_BEFORE_KILL.length && (await waitsOnLock(db, "for update")),
      first,
    );
    expect(await chunkNumbers()).toEqual(DONE_BEFORE_KILL);
    const doneBeforeKill = DONE_BEFORE_KILL.length * CHUNK_SIZE;
    expect(await readJobRun(db, key)).toMatchObject({
      status: "running",
      total: CUSTOMERS,
      done: doneBeforeKill,
    });
    // Every chunk but the blocked one is posted and has its statements; that one nothing yet.
    const midway = await postedByCustomer();
    expect(midway.filter((row) => row.statements === 1)).toHaveLength(doneBeforeKill);
    expect(midway.filter((row) => row.recurring === 1)).toHaveLength(doneBeforeKill);
    const blocked = new Set(
      ids.slice(BLOCKED_CHUNK * CHUNK_SIZE, (BLOCKED_CHUNK + 1) * CHUNK_SIZE).map(String),
    );
    expect(midway.filter((row) => row.statements === 0).map((row) => row.customer_id)).toEqual([...blocked]);

    first.child.kill("SIGKILL");
    expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });
    await held.release();

    const second = startWorker();
    await waitFor("the run to finish", () => productionRunEnded(db, run.id), second);

    const finished = await getProductionRun(db, run.id);
    expect(finished).toMatchObject({ status: "done", total: CUSTOMERS, done: CUSTOMERS });
    expect(finished.figures).toMatchObject({
      customers: CUSTOMERS,
      recurring: { count: CUSTOMERS, total: "800.00" },
      late_fees: { count: overdue.length, total: `${overdue.length * 5}.00` },
    });
    expect(await chunkNumbers()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(await ledgerMismatches(db)).toEqual([]);
    // Every customer once: one recurring posting, one statement; a late fee only the overdue ones.
    const overdueIds = new Set(overdue.map(String));
    expect(await postedByCustomer()).toEqual(
      ids.map((id) => ({
        customer_id: String(id),
        recurring: 1,
        late_fees: overdueIds.has(String(id)) ? 1 : 0,
        statements: 1,
      })),
    );
    const [bookkeeping] = await db.select().from(clients).where(eq(clients.id, clientId));
    expect(bookkeeping).toMatchObject({ cycleRan: true, dateLastBilling: RUN_DATE, numberBillsSentYtd: 40 });

    // pg-boss's record: the killed chunk was retried once after it expired, no other chunk ran twice.
    const attempts = await queryRows(
      db,
      sql`select (data->>'chunkNo')::int as chunk_no, retry_count
          from pgboss.job where name = 'production-run' and data->>'step' = 'chunk'
          order by chunk_no`,
      z.object({ chunk_no: dbInt, retry_count: dbInt }),
    );
    expect(attempts.map((job) => [job.chunk_no, job.retry_count])).toEqual(
      Array.from({ length: 8 }, (_, chunkNo) => [chunkNo, chunkNo === BLOCKED_CHUNK ? 1 : 0]),
    );

    second.child.kill("SIGTERM");
    expect(await second.exited).toEqual({ code: 0, signal: null });
  });
});
