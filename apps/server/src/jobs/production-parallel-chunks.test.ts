import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../db/query-rows.js";
import { dbInt } from "../db/row-schemas.js";
import { ledgerMismatches } from "../modules/ledger/ledger-mismatches.js";
import { getProductionRun } from "../modules/production/production-runs.js";
import { createProductionClient } from "../test-support/production-client.js";
import {
  doneChunks,
  holdCustomer,
  productionRunEnded,
  startBedProductionRun,
  startKillTestBed,
  type KillTestBed,
} from "../test-support/kill-test-bed.js";
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

      // Hold a customer of chunk 0 (the first one taken): its worker waits there.
      const held = await holdCustomer(bed.databaseUrl, clientId, ids[2]);

      const run = await startBedProductionRun(bed, "admin@parallel.example", {
        cycle: CYCLE,
        runDate: RUN_DATE,
        chunkSize: CHUNK_SIZE,
      });
      const jobRunId = run.clients[0]?.job_run_id;
      if (!jobRunId) throw new Error("no client part");
      const chunkNumbers = () => doneChunks(db, { clientId, runId: jobRunId });

      for (let index = 0; index < 2; index++) bed.startWorker({ expireSeconds: 120 });
      // Chunks 1-3 are done by the free worker while chunk 0 still waits on the held customer.
      await waitFor(
        "chunks 1 to 3 done while chunk 0 waits",
        async () => (await chunkNumbers()).length === 3,
        bed.workers[0],
      );
      expect(await chunkNumbers()).toEqual([1, 2, 3]);

      await held.release();
      await waitFor("the run to finish", () => productionRunEnded(db, run.id), bed.workers[1]);
      expect(await getProductionRun(db, run.id)).toMatchObject({ status: "done", done: CUSTOMERS });
      const numbers = await queryRows(
        db,
        sql`select statement_num from statements where client_id = ${clientId} order by statement_num`,
        z.object({ statement_num: dbInt }),
      );
      expect(numbers.map((row) => row.statement_num)).toEqual(
        Array.from({ length: CUSTOMERS }, (_, index) => index + 1),
      );
      expect(await ledgerMismatches(db, { clientId })).toEqual([]);
    },
  );
});
