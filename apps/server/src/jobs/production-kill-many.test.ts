import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../db/query-rows.js";
import { dbInt } from "../db/row-schemas.js";
import { readJobRun } from "../modules/jobs/job-runs.js";
import { ledgerMismatches } from "../modules/ledger/ledger-mismatches.js";
import { getProductionRun } from "../modules/production/production-runs.js";
import { postInOneTransaction, serviceCharge } from "../test-support/ledger-rows.js";
import { createProductionClient } from "../test-support/production-client.js";
import {
  productionRunEnded,
  startBedProductionRun,
  startKillTestBed,
  type KillTestBed,
} from "../test-support/kill-test-bed.js";
import { waitFor } from "../test-support/worker-process.js";

// A 10,000-customer production run worked by three worker processes, one of them killed with
// SIGKILL in the middle of the run: the others finish it, and no customer has two statements, two
// late fees or two recurring postings for the period; the books balance. PostgreSQL only.

const CUSTOMERS = 10_000;
const CHUNK_SIZE = 500; // 20 chunks
const KILL_AFTER_DONE = 2_500;
const CYCLE = 11;
const RUN_DATE = "2025-05-11";

describe.runIf(process.env.TEST_DB === "postgres")(
  "a 10,000-customer run with a worker killed mid-run",
  () => {
    let bed: KillTestBed;

    beforeAll(async () => {
      bed = await startKillTestBed({ name: "kill-many" });
    });
    afterAll(async () => bed?.close());

    it("finishes with the other workers, every customer done once", { timeout: 300_000 }, async () => {
      const { db } = bed.database;
      const {
        clientId,
        codeId,
        customerIds: ids,
      } = await createProductionClient(db, {
        clientNo: 4545,
        cycle: CYCLE,
        dateLastBilling: "2025-04-11",
        customers: CUSTOMERS,
        client: { financeFlag: "1", thirtyDayRateOrPercent: "rate", dayCharge30Day: "5.00" },
      });
      // A tenth owe 40.00 from 44 days before the run (the 30-day late-fee tier).
      const overdue = ids.filter((_, index) => index % 10 === 0);
      await postInOneTransaction(
        db,
        clientId,
        overdue.map((customerId) => serviceCharge(customerId, codeId, "40.00", "2025-03-28")),
      );

      for (let index = 0; index < 3; index++) bed.startWorker({ expireSeconds: 20 });
      const run = await startBedProductionRun(bed, "admin@kill-many.example", {
        cycle: CYCLE,
        runDate: RUN_DATE,
        chunkSize: CHUNK_SIZE,
      });
      const jobRunId = run.clients[0]?.job_run_id;
      if (!jobRunId) throw new Error("no client part");

      // Mid-run, one of the three workers dies without a chance to clean up.
      const victim = bed.workers[0]!;
      await waitFor(
        `${KILL_AFTER_DONE} customers done`,
        async () => ((await readJobRun(db, { clientId, runId: jobRunId }))?.done ?? 0) >= KILL_AFTER_DONE,
        victim,
      );
      victim.child.kill("SIGKILL");
      expect(await victim.exited).toEqual({ code: null, signal: "SIGKILL" });
      const midway = (await readJobRun(db, { clientId, runId: jobRunId }))?.done ?? 0;
      expect(midway).toBeLessThan(CUSTOMERS);

      await waitFor("the run to finish", () => productionRunEnded(db, run.id), bed.workers[1]);
      const finished = await getProductionRun(db, run.id);
      expect(finished).toMatchObject({ status: "done", total: CUSTOMERS, done: CUSTOMERS });
      expect(finished.figures).toMatchObject({
        customers: CUSTOMERS,
        recurring: { count: CUSTOMERS, total: "200000.00" },
        late_fees: { count: overdue.length, total: `${overdue.length * 5}.00` },
      });

      const [twice] = await queryRows(
        db,
        sql`select
            (select count(*)::int from (select customer_id from transactions where client_id = ${clientId}
               and transaction_type = 'recurring' group by customer_id having count(*) > 1) r) as recurring,
            (select count(*)::int from (select customer_id from transactions where client_id = ${clientId}
               and transaction_type = 'late_fee' group by customer_id having count(*) > 1) l) as late_fees,
            (select count(*)::int from (select customer_id from statements where client_id = ${clientId}
               group by customer_id having count(*) > 1) s) as statements,
            (select count(distinct customer_id)::int from statements where client_id = ${clientId}) as once`,
        z.object({ recurring: dbInt, late_fees: dbInt, statements: dbInt, once: dbInt }),
      );
      expect(twice).toEqual({ recurring: 0, late_fees: 0, statements: 0, once: CUSTOMERS });
      expect(await ledgerMismatches(db, { clientId })).toEqual([]);
    });
  },
);
