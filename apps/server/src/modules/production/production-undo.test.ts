import { asc, eq, sql } from "drizzle-orm";
import { jobRunSchema, productionRunSchema, type JobRun, type ProductionRun } from "@cyclebill/domain";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { customers } from "../../db/tables.js";
import { invoices, recurringCharges, routePlans, routes } from "../../db/tables.js";
import { queryRows } from "../../db/query-rows.js";
import { dbBool, dbDate, dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import { monthlyCharge, postInOneTransaction, serviceCharge } from "../../test-support/ledger-rows.js";
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
import { insertCustomer } from "../../test-support/test-customers.js";

// A cycle-9 client on a fixed run date (passes on any day): mailed customers with an overdue
// balance (late fees), recurring charges of both kinds, a one-month pull flag, a group skip and an
// invoice the run carries. Run, undo, run again: the same statements and ledger.
const CYCLE = 9;
const RUN_DATE = "2025-05-09";

useProductionApp({
  // One chunk: a run's statement numbers follow the order its chunks take the number lock, which
  // parallel chunks make vary from run to run (noted on issue 38); "the same statements" needs one.
  chunkSize: 10,
  client: {
    normalCycle: CYCLE,
    dateLastBilling: "2025-04-09",
    financeFlag: "1",
    thirtyDayRateOrPercent: "rate",
    dayCharge30Day: "5.00",
    numberBillsSentYtd: 12,
  },
  otherCycle: 28,
});

beforeAll(async () => {
  const { charge: codeId } = await createCodes(testApp.db, clientId, { charge: "charge" });
  const add = (no: number, name: string, fields: Partial<typeof customers.$inferInsert> = {}) =>
    insertCustomer(testApp.db, { clientId, customerNo: no, customerName: name, lastName: name, ...fields });
  const owes = await add(11, "Owes");
  const temp = await add(12, "Temp pull", { pullFlag: "T" });
  const skip = await add(13, "Group skip");
  const fresh = await add(14, "Fresh");
  await postInOneTransaction(testApp.db, clientId, [
    serviceCharge(owes, codeId, "100.00", "2025-03-20"),
    serviceCharge(temp, codeId, "40.00", "2025-04-30"),
    serviceCharge(fresh, codeId, "12.34", "2025-05-02"),
  ]);
  await testApp.db.insert(recurringCharges).values([
    monthlyCharge({ clientId, customerId: owes, codeId }, "25.00"),
    monthlyCharge({ clientId, customerId: fresh, codeId }, "7.50", {
      description: "Visits",
      arrears: true,
    }),
  ]);
  const [group] = await testApp.db
    .insert(routes)
    .values({ clientId, routeName: "North" })
    .returning({ id: routes.id });
  await testApp.db
    .insert(routePlans)
    .values({ clientId, routeId: group?.id ?? 0, customerId: skip, stop: 0, billIndicatorFlag: "skip" });
  await testApp.db
    .insert(invoices)
    .values({ clientId, customerId: fresh, invoiceNum: 1, invoiceDate: "2025-05-03" });
});

const runCycle = () => runProductionCycle(admin, CYCLE, { run_date: RUN_DATE });

async function waitForJob(id: number): Promise<JobRun> {
  return pollUntil(
    async () => jobRunSchema.parse((await admin.get(`/api/jobs/${id}/`, { client_id: clientId })).body),
    (job) => job.status === "succeeded" || job.status === "failed",
    60_000,
  );
}

const statementRowSchema = z.object({
  statement_num: dbInt,
  customer_id: dbInt,
  statement_date: dbDate,
  delivery: dbText,
  previous_balance: dbDecimal,
  charges: dbDecimal,
  payments: dbDecimal,
  late_fees: dbDecimal,
  new_balance: dbDecimal,
  current_balance: dbDecimal,
  overdue_30_days: dbDecimal,
});
const entryRowSchema = z.object({
  customer_id: dbInt,
  description: dbText,
  amount: dbDecimal,
  service_date: dbDate,
  transaction_type: dbText,
  statement_num: dbInt.nullable(),
});
const customerRowSchema = z.object({
  id: dbInt,
  total_balance: dbDecimal,
  previous_balance: dbDecimal,
  mtd_charges: dbDecimal,
  mtd_payments: dbDecimal,
  current_balance: dbDecimal,
  overdue_30_days: dbDecimal,
  pull_flag: dbText,
  ledger_entries: dbInt,
});
const clientRowSchema = z.object({
  cycle_ran: dbBool,
  days_in_last_cycle: dbInt,
  date_first_billing: dbDate.nullable(),
  date_last_billing: dbDate.nullable(),
  date_this_billing: dbDate.nullable(),
  number_bills_sent_ytd: dbInt,
  number_mailed_bills: dbInt,
  books_closed_through: dbDate.nullable(),
});

/** Everything a run writes or changes, without ids and timestamps. */
async function books() {
  const q = <S extends z.ZodType>(query: ReturnType<typeof sql>, row: S) => queryRows(testApp.db, query, row);
  return {
    statements: await q(
      sql`select statement_num, customer_id, statement_date::text, delivery, previous_balance::text,
        charges::text, payments::text, late_fees::text, new_balance::text, current_balance::text,
        overdue_30_days::text from statements where client_id = ${clientId} order by statement_num`,
      statementRowSchema,
    ),
    entries: await q(
      sql`select t.customer_id, t.description, t.amount::text, t.service_date::text,
        t.transaction_type, s.statement_num from transactions t
        left join statements s on s.client_id = t.client_id and s.id = t.statement_id
        where t.client_id = ${clientId} order by t.customer_id, t.service_date, t.description`,
      entryRowSchema,
    ),
    customers: await q(
      sql`select id, total_balance::text, previous_balance::text, mtd_charges::text,
        mtd_payments::text, current_balance::text, overdue_30_days::text, pull_flag, ledger_entries
        from customers where client_id = ${clientId} order by id`,
      customerRowSchema,
    ),
    client: await q(
      sql`select cycle_ran, days_in_last_cycle, date_first_billing::text, date_last_billing::text,
        date_this_billing::text, number_bills_sent_ytd, number_mailed_bills, books_closed_through::text
        from clients where id = ${clientId}`,
      clientRowSchema,
    ),
    recurring: await testApp.db
      .select({ id: recurringCharges.id, lastBilledOn: recurringCharges.lastBilledOn })
      .from(recurringCharges)
      .where(eq(recurringCharges.clientId, clientId))
      .orderBy(asc(recurringCharges.id)),
    flags: await q(
      sql`select customer_id, bill_indicator_flag from route_plans where client_id = ${clientId}`,
      z.object({ customer_id: dbInt, bill_indicator_flag: dbText }),
    ),
    invoices: await q(
      sql`select invoice_num, invoice_status, statement_id is null as unbilled from invoices
        where client_id = ${clientId}`,
      z.object({ invoice_num: dbInt, invoice_status: dbText, unbilled: dbBool }),
    ),
    pools: await q(
      sql`select count(*)::int as pools from pools where client_id = ${clientId}`,
      z.object({ pools: dbInt }),
    ),
  };
}

describe("undo a production run", () => {
  let before: Awaited<ReturnType<typeof books>>;
  let afterRun: Awaited<ReturnType<typeof books>>;
  let run: ProductionRun;

  it("takes a client's part back to the books before it, and shows who undid it (failed before: no undo route)", async () => {
    before = await books();
    run = await runCycle();
    expect(run.status).toBe("done");
    afterRun = await books();
    // The fixture's two customers and three of ours (the group skip gets none).
    expect(afterRun.statements).toHaveLength(5);
    expect(afterRun.entries.some((entry) => entry.transaction_type === "late_fee")).toBe(true);
    expect(afterRun.client).not.toEqual(before.client);

    for (const token of [fixture.a.ownerToken, fixture.a.staffToken])
      expect(
        (await testApp.client(token).post(`/api/productionruns/${run.id}/undo/?client_id=${clientId}`))
          .status,
      ).toBe(403);
    expect(
      (await admin.post(`/api/productionruns/${run.id}/undo/?client_id=${fixture.b.clientId}`)).status,
    ).toBe(404);
    expect((await admin.post(`/api/productionruns/${run.id}/undo/`)).status).toBe(400);

    // The part offers the undo it would accept (issue 41 point 6).
    const offered = productionRunSchema.parse((await admin.get(`/api/productionruns/${run.id}/`)).body);
    expect(offered.clients.find((item) => item.client_id === clientId)?.actions).toEqual(["undo"]);

    const asked = await admin.post(`/api/productionruns/${run.id}/undo/?client_id=${clientId}`);
    expect(asked.status).toBe(202);
    const job = await waitForJob(jobRunSchema.parse(asked.body).id);
    expect(job).toMatchObject({ status: "succeeded", kind: "production-undo", total: 5, done: 5 });

    expect(await books()).toEqual(before);
    expect(await ledgerMismatches(testApp.db, { clientId })).toEqual([]);
    const shown = productionRunSchema.parse((await admin.get(`/api/productionruns/${run.id}/`)).body);
    const part = shown.clients.find((item) => item.client_id === clientId);
    expect(part?.undo).toMatchObject({
      status: "succeeded",
      requested_by: expect.any(Number),
      removed: { statements: 5, pools: 2, emails: 0 },
    });
    expect(part?.undo?.undone_at).not.toBeNull();
    expect(part?.undo?.requested_by_name).toBeTruthy();
    expect(part?.actions).toEqual([]);
    expect(shown.actions).toEqual([]);
    expect(shown.figures.customers).toBe(0);

    const again = await admin.post(`/api/productionruns/${run.id}/undo/?client_id=${clientId}`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: "This client's part of the run is already undone." });
  });

  it("runs the same cycle again to the same statements and ledger", async () => {
    const rerun = await runCycle();
    expect(rerun.status).toBe("done");
    expect(rerun.id).not.toBe(run.id);
    expect(await books()).toEqual(afterRun);
    expect(await ledgerMismatches(testApp.db, { clientId })).toEqual([]);
    run = rerun;
  });

  it("answers 409 with what went out once a pool was downloaded", async () => {
    const [pool] = await pollUntil(
      async () =>
        queryRows(
          testApp.db,
          // This run's pools (its client part's): an undone run's pool files go after its undo commits.
          sql`select pool_name, state from pools where client_id = ${clientId} and production_run_id in
                (select id from production_runs where client_id = ${clientId} and cycle_run_id = ${run.id})`,
          z.object({ pool_name: dbText, state: dbText }),
        ),
      (rows) => rows.length > 0 && rows.every((row) => row.state === "ready"),
      60_000,
    );
    const download = await fetch(`${testApp.baseUrl}/api/dailyproduction/download/pool/${pool?.pool_name}/`, {
      headers: { authorization: `Bearer ${fixture.adminToken}` },
    });
    expect(download.status).toBe(200);
    await download.arrayBuffer();
    const refused = await admin.post(`/api/productionruns/${run.id}/undo/?client_id=${clientId}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      detail: `Delivery has started (pool ${pool?.pool_name} downloaded): this run can no longer be undone.`,
      went_out: [`pool ${pool?.pool_name} downloaded`],
    });
    // Nor is the undo offered any more (issue 41 point 6: the dialog offered it and was refused).
    const shown = productionRunSchema.parse((await admin.get(`/api/productionruns/${run.id}/`)).body);
    expect(shown.clients.find((item) => item.client_id === clientId)?.actions).toEqual([]);
    expect(await books()).toEqual({ ...afterRun });
  });

  it("does nothing twice when its job is replayed (as after kill -9)", async () => {
    const [part] = await queryRows(
      testApp.db,
      sql`select id, undo_job_run_id from production_runs where client_id = ${clientId} and undone_at is not null`,
      z.object({ id: dbInt, undo_job_run_id: dbInt }),
    );
    const { runProductionUndo } = await import("./undo-production.js");
    const snapshot = await books();
    await runProductionUndo(
      testApp.db,
      { clientId, runId: Number(part?.undo_job_run_id), productionRunId: Number(part?.id) },
      testApp.config.dataDir,
    );
    expect(await books()).toEqual(snapshot);
  });
});
