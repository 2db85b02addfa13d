import { asc, eq, sql } from "drizzle-orm";
import {
  productionClientPreviewSchema,
  productionCustomerPreviewSchema,
  productionCycleListSchema,
  productionCyclePreviewSchema,
  productionRunSchema,
} from "@cyclebill/domain";
import type { ProductionRun } from "@cyclebill/domain";
import { describe, expect, it } from "vitest";
import { clients, customers, routePlans, statements } from "../../db/tables.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import { statementMismatches } from "../ledger/statement-mismatches.js";
import { pdfText } from "../../test-support/pdf-text.js";
import {
  CYCLE,
  RUN_DATE,
  testApp,
  fixture,
  admin,
  clientA,
  clientC,
  ids,
  waitForRun,
  runPostings,
  useProductionWorld,
} from "../../test-support/production-world.js";

useProductionWorld();

describe("production run", () => {
  it("answers 403 to owners and staff on every production call", async () => {
    for (const token of [fixture.a.ownerToken, fixture.a.staffToken]) {
      const user = testApp.client(token);
      for (const path of [
        "/api/dailyproduction/",
        `/api/dailyproduction/cycle/${CYCLE}/`,
        `/api/dailyproduction/client/${clientA}/`,
        `/api/dailyproduction/client/${clientA}/customers/${ids["mail-30"]}/`,
        "/api/productionruns/",
        "/api/productionruns/1/",
      ])
        expect((await user.get(path)).status).toBe(403);
      expect((await user.post(`/api/dailyproduction/cycle/${CYCLE}/`, { run_date: RUN_DATE })).status).toBe(
        403,
      );
    }
  });

  let preview: ReturnType<typeof productionCyclePreviewSchema.parse>;

  it("previews the cycle: clients with figures, skipped clients with why", async () => {
    const response = await admin.get(`/api/dailyproduction/cycle/${CYCLE}/`, { run_date: RUN_DATE });
    expect(response.status).toBe(200);
    preview = productionCyclePreviewSchema.parse(response.body);
    const byId = new Map(preview.clients.map((client) => [client.client_id, client]));
    expect(byId.get(fixture.b.clientId)).toMatchObject({
      skip_reason: "status_inactive",
      skip_label: "Status I: inactive",
    });
    expect(byId.get(clientA)).toMatchObject({
      skip_reason: null,
      period_start: "2025-02-08",
      period_end: RUN_DATE,
    });
    expect(byId.get(clientA)?.figures).toEqual({
      customers: 13,
      statements: { mail: 4, email: 1, both: 1, pulled: 2, none: 5 },
      no_statement: {
        no_bill_this_month: 1,
        no_bill: 1,
        delete_flag: 1,
        group_skip: 1,
        group_pause: 1,
        under_minimum: 0,
        credit_balance: 0,
        zero_balance: 0,
        no_mailing_address: 0,
        no_email_address: 0,
      },
      // mail-30's monthly 25.00 and its two February visits (15.00); none for D or S
      recurring: { count: 2, total: "40.00" },
      // 30 tier flat 5.00; 60 tier 2% of 200.00; 3% of 33.33 = 1.00 (half-up); pull-T has N
      late_fees: { count: 3, total: "10.00" },
    });
    // Cycle 7 does not take month-end clients; cycle 28 does, and applies criteria 03.
    expect(byId.has(clientC)).toBe(false);
    const monthEnd = productionCyclePreviewSchema.parse(
      (await admin.get("/api/dailyproduction/cycle/28/", { run_date: "2025-03-31" })).body,
    );
    expect(monthEnd.clients.find((client) => client.client_id === clientC)?.figures.statements).toEqual({
      mail: 1,
      email: 0,
      both: 0,
      pulled: 0,
      none: 1,
    });
  });

  it("previews a client's customers and one customer's lines", async () => {
    const response = await admin.get(`/api/dailyproduction/client/${clientA}/`, { run_date: RUN_DATE });
    expect(response.status).toBe(200);
    const client = productionClientPreviewSchema.parse(response.body);
    const row = (name: string) => client.results.find((customer) => customer.customer_id === ids[name]);
    expect(row("mail-30")).toMatchObject({
      delivery: "mail",
      new_balance: "145.00",
      late_fee: "5.00",
      late_fee_description: "Late fee 30 days",
    });
    expect(row("email-60")).toMatchObject({ delivery: "email", late_fee: "4.00", new_balance: "204.00" });
    expect(row("both-90")).toMatchObject({ delivery: "both", late_fee: "1.00" });
    expect(row("pull-T")).toMatchObject({ delivery: "pulled", late_fee: "0.00" });
    expect(row("delete-D")).toMatchObject({
      statement: false,
      no_statement_reason: "delete_flag",
      recurring: { count: 0, total: "0.00" },
    });
    expect(row("delete-S")).toMatchObject({ delivery: "mail", recurring: { count: 0, total: "0.00" } });
    expect(row("group-skip")).toMatchObject({ statement: false, no_statement_reason: "group_skip" });

    const one = await admin.get(`/api/dailyproduction/client/${clientA}/customers/${ids["mail-30"]}/`, {
      run_date: RUN_DATE,
    });
    expect(one.status).toBe(200);
    const customer = productionCustomerPreviewSchema.parse(one.body);
    expect(customer.ageing.days30).toBe("100.00");
    expect(customer.lines).toEqual([
      {
        kind: "recurring",
        code: 100,
        description: "Monthly service",
        service_date: "2025-03-01",
        rate: "25.00000",
        quantity: "1",
        amount: "25.00",
      },
      {
        kind: "recurring",
        code: 100,
        description: "Visits — February 2025",
        service_date: RUN_DATE,
        rate: "7.50000",
        quantity: "2",
        amount: "15.00",
      },
      {
        kind: "late_fee",
        code: -1,
        description: "Late fee 30 days",
        service_date: RUN_DATE,
        rate: "5.00",
        quantity: "1",
        amount: "5.00",
      },
    ]);
    expect(
      (
        await admin.get(`/api/dailyproduction/client/${clientA}/customers/${ids["c-owes"]}/`, {
          run_date: RUN_DATE,
        })
      ).status,
    ).toBe(404);
  });

  let run: ProductionRun;

  it("runs the cycle as a job and posts exactly what the preview showed", async () => {
    const started = await admin.post(`/api/dailyproduction/cycle/${CYCLE}/`, { run_date: RUN_DATE });
    expect(started.status).toBe(202);
    const queued = productionRunSchema.parse(started.body);
    expect(queued).toMatchObject({ cycle: CYCLE, run_date: RUN_DATE });
    expect(queued.skipped).toEqual([
      expect.objectContaining({ client_id: fixture.b.clientId, reason: "status_inactive" }),
    ]);
    run = await waitForRun(queued.id);
    expect(run).toMatchObject({ status: "done", total: 13, done: 13 });
    const previewA = preview.clients.find((client) => client.client_id === clientA);
    expect(run.clients[0]?.figures).toEqual(previewA?.figures);
    expect(run.figures).toEqual(preview.totals);

    const posted = await runPostings();
    expect(posted.map((row) => [row.customerId, row.type, row.amount])).toEqual([
      [ids["mail-30"], "recurring", "25.00"],
      [ids["mail-30"], "recurring", "15.00"],
      [ids["mail-30"], "late_fee", "5.00"],
      [ids["email-60"], "late_fee", "4.00"],
      [ids["both-90"], "late_fee", "1.00"],
    ]);
    const made = await testApp.db
      .select({
        customerId: statements.customerId,
        delivery: statements.delivery,
        newBalance: statements.newBalance,
        lateFees: statements.lateFees,
      })
      .from(statements)
      .where(eq(statements.clientId, clientA))
      .orderBy(asc(statements.customerId));
    expect(made).toHaveLength(8);
    expect(made.find((row) => row.customerId === ids["mail-30"])).toEqual({
      customerId: ids["mail-30"],
      delivery: "mail",
      newBalance: "145.00",
      lateFees: "5.00",
    });
    expect(made.find((row) => row.customerId === ids["pull-T"])?.delivery).toBe("pulled");
  });

  it("leaves flags, periods and the client's bookkeeping as the rules say", async () => {
    const flags = await testApp.db
      .select({
        id: customers.id,
        pullFlag: customers.pullFlag,
        previousBalance: customers.previousBalance,
        mtdCharges: customers.mtdCharges,
      })
      .from(customers)
      .where(eq(customers.clientId, clientA));
    const flagOf = (name: string) => flags.find((row) => row.id === ids[name]);
    expect(flagOf("pull-T")?.pullFlag).toBe("A");
    expect(flagOf("pull-N")?.pullFlag).toBe("A");
    expect(flagOf("pull-P")?.pullFlag).toBe("P");
    expect(flagOf("pull-L")?.pullFlag).toBe("L");
    expect(flagOf("mail-30")).toMatchObject({ previousBalance: "145.00", mtdCharges: "0.00" });
    const groupFlags = await testApp.db
      .select({ customerId: routePlans.customerId, flag: routePlans.billIndicatorFlag })
      .from(routePlans);
    expect(groupFlags.find((row) => row.customerId === ids["group-skip"])?.flag).toBe("standard");
    expect(groupFlags.find((row) => row.customerId === ids["group-pause"])?.flag).toBe("pause");
    const [client] = await testApp.db.select().from(clients).where(eq(clients.id, clientA));
    expect(client).toMatchObject({
      cycleRan: true,
      daysInLastCycle: 28,
      dateLastBilling: RUN_DATE,
      dateThisBilling: RUN_DATE,
      numberBillsSentYtd: 46, // 40 + 4 mail + 1 email + 1 both; the fiscal year (July) did not turn
      numberMailedBills: 5,
      numberEmailedBills: 2,
      numberPulledBills: 2,
    });
    expect(await ledgerMismatches(testApp.db)).toEqual([]);
  });

  it("prints every box once: the record's and the PDF's boxes add up to the new balance", async () => {
    const listed = await admin.get("/api/statements/", { client_id: clientA, page_size: 100 });
    expect(listed.status).toBe(200);
    const records = (listed.body as { results: Record<string, string | number>[] }).results;
    expect(records.length).toBeGreaterThan(0);
    const cents = (value: string | number) => Math.round(Number(value) * 100);
    for (const record of records) {
      const sum =
        cents(record.previous_balance!) +
        cents(record.charges!) +
        cents(record.late_fees!) +
        cents(record.debit_adjustments!) -
        cents(record.payments!) -
        cents(record.credit_adjustments!);
      expect({ id: record.id, sum }).toEqual({ id: record.id, sum: cents(record.new_balance!) });
    }
    // The late fee is its own box, not also in charges: 100.00 owed + 25.00 + 15.00 recurring, 5.00 late.
    const mail = records.find((record) => record.customer_id === ids["mail-30"]);
    expect(mail).toMatchObject({ charges: "140.00", late_fees: "5.00", new_balance: "145.00" });
    const response = await fetch(
      `${testApp.baseUrl}/api/statements/${String(mail?.id)}/pdf/?client_id=${clientA}`,
      {
        headers: { authorization: `Bearer ${fixture.adminToken}` },
      },
    );
    expect(response.status).toBe(200);
    const text = (await pdfText(new Uint8Array(await response.arrayBuffer()))).replace(/\s+/g, " ");
    // Each box once, in the order they add; the 5.00 late fee is not also in the 140.00 of charges.
    expect(text).toContain(
      "PREVIOUS BALANCE CHARGES LATE FEES DEBITS PAYMENTS CREDITS NEW BALANCE $0.00 $140.00 $5.00 $0.00 $0.00 $0.00 $145.00",
    );
    // The one due-date rule (the fixture client's terms name no days: 30 days after the statement).
    expect(text).toContain("Due Date 04/06/2025");

    // The doctor proves every statement of the run, and names one whose boxes were tampered with.
    expect(await statementMismatches(testApp.db, { clientId: clientA })).toEqual([]);
    const tampered = Number(mail?.id);
    await testApp.db.execute(sql`update statements set charges = charges + 1 where id = ${tampered}`);
    const found = await statementMismatches(testApp.db, { clientId: clientA });
    await testApp.db.execute(sql`update statements set charges = charges - 1 where id = ${tampered}`);
    expect(found.map((m) => [m.statementId, m.reasons])).toEqual([
      [tampered, ["its boxes do not add up to the new balance 145.00"]],
    ]);
  });

  it("answers the existing run to a second POST and posts nothing twice", async () => {
    const before = (await runPostings()).length;
    const again = await admin.post(`/api/dailyproduction/cycle/${CYCLE}/`, { run_date: RUN_DATE });
    expect(again.status).toBe(202);
    expect(productionRunSchema.parse(again.body).id).toBe(run.id);
    const laterInMonth = await admin.post(`/api/dailyproduction/cycle/${CYCLE}/`, { run_date: "2025-03-20" });
    expect(productionRunSchema.parse(laterInMonth.body).clients).toEqual([]);
    expect((await runPostings()).length).toBe(before);
    const preview = productionCyclePreviewSchema.parse(
      (await admin.get(`/api/dailyproduction/cycle/${CYCLE}/`, { run_date: RUN_DATE })).body,
    );
    expect(preview.clients.find((client) => client.client_id === clientA)?.skip_reason).toBe("already_run");
    const keyed = await admin.request("POST", `/api/dailyproduction/cycle/28/`, {
      body: { run_date: "2025-03-31" },
      headers: { "Idempotency-Key": "month-end-1" },
    });
    const replay = await admin.request("POST", `/api/dailyproduction/cycle/28/`, {
      body: { run_date: "2025-03-31" },
      headers: { "Idempotency-Key": "month-end-1" },
    });
    expect(productionRunSchema.parse(replay.body).id).toBe(productionRunSchema.parse(keyed.body).id);
    await waitForRun(productionRunSchema.parse(keyed.body).id);
  });

  it("lists the cycles and the runs", async () => {
    const cycles = productionCycleListSchema.parse((await admin.get("/api/dailyproduction/")).body);
    expect(cycles.count).toBe(28);
    expect(cycles.results.find((cycle) => cycle.cycle === CYCLE)).toMatchObject({ clients: 2 });
    expect(cycles.results.find((cycle) => cycle.cycle === CYCLE)?.last_run?.cycle).toBe(CYCLE);
    const runs = await admin.get("/api/productionruns/", { cycle: CYCLE });
    expect(runs.status).toBe(200);
    expect((runs.body as { results: ProductionRun[] }).results.map((item) => item.id)).toContain(run.id);
    expect((await admin.get("/api/productionruns/999999/")).status).toBe(404);
    void sql;
  });
});
