import { startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import {
  cardRunSchema,
  customerListRowSchema,
  jobRunSchema,
  publicPaymentInfoSchema,
  statementDetailSchema,
  statementPayToken,
  type StatementDetail,
} from "@cyclebill/domain";
import fc from "fast-check";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { currentClock, setClock } from "../../clock.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";
import { clients, codes, customers, recurringCharges, statements } from "../../db/tables.js";
import { pollUntil } from "../../test-support/poll-until.js";
import { runProductionCycle } from "../../test-support/production-app.js";
import {
  ageingAt,
  amountDueNow,
  balanceAt,
  makeStatement,
  money,
  monthActivity,
  runPostings,
  shiftDate,
  signed,
  type Kind,
  type LateFeeTerms,
  type ModelCustomer,
  type MonthCategory,
} from "../../test-support/statement-model/statement-model.js";
import { luhnCard, storeCardOnFile, gatewayAccountFields } from "../../test-support/stored-cards.js";
import {
  createTenantFixture,
  startTestApp,
  type ApiClient,
  type TestApp,
} from "../../test-support/test-app.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import { statementMismatches } from "../ledger/statement-mismatches.js";

// Issue 38: a model-based property test. Random sequences of charges, payments, credits, debits and
// voids (some dated after the next run), invoices opened and closed, autopay on and off, undo and
// re-run, over consecutive monthly runs, are driven through the real server over HTTP (jobs, the
// gateway sandbox); after each run every statement (boxes, lines, amount due, due date, ageing), the
// pay page's amount due and the customer's status are compared with an independent model
// (test-support/statement-model). Dates come from a fixed clock, so it passes on any day.
// STATEMENT_MODEL_RUNS sequences (25 by default), STATEMENT_MODEL_SEED to replay one.

const RUNS = Number(process.env.STATEMENT_MODEL_RUNS ?? 25);
const SEED = Number(process.env.STATEMENT_MODEL_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUN_DATES = ["2025-02-10", "2025-03-10", "2025-04-10"];
const OPENED = "2025-01-10";
const CYCLE = 10;
const ACCOUNT = { accountId: "100000003838", secretKey: "STATEMENTMODELSECRETKEY00000038" };
const KINDS: Kind[] = ["charge", "payment", "adjust", "debit"];
const realClock = currentClock();

let sandbox: Sandbox;
let testApp: TestApp;
let admin: ApiClient;
let clientNo = 3800;
let cardIndex = 0;
const seen = { sequences: 0, statements: 0, lateFees: 0, autopayCharges: 0, invoicesCarried: 0, undos: 0 };

beforeAll(async () => {
  sandbox = await startSandbox({ accounts: [ACCOUNT], demoAccount: false });
  testApp = await startTestApp({
    jobs: { chunkSize: 10 },
    bluepay: { url: sandbox.bp20postUrl, mode: "TEST", timeoutMs: 30_000 },
  });
  admin = testApp.client((await createTenantFixture(testApp)).adminToken);
});

afterAll(async () => {
  setClock(realClock);
  await testApp?.close();
  await sandbox?.close();
});

type Op =
  | { op: "post"; kind: Kind; customer: number; cents: number; day: number }
  | { op: "void" | "reverse"; customer: number; pick: number }
  | { op: "invoice"; customer: number; close: boolean };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant("post" as const),
      kind: fc.constantFrom(...KINDS),
      customer: fc.nat(2),
      cents: fc.integer({ min: 100, max: 40_000 }),
      day: fc.integer({ min: 1, max: 36 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constantFrom("void" as const, "reverse" as const),
      customer: fc.nat(2),
      pick: fc.nat(20),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("invoice" as const),
      customer: fc.nat(2),
      close: fc.constantFrom(true, true, false),
    }),
  },
);

const sequenceArb = fc.record({
  opening: fc.array(
    fc.record({
      customer: fc.nat(2),
      cents: fc.integer({ min: 1_000, max: 60_000 }),
      daysBack: fc.integer({ min: 0, max: 120 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  periods: fc.array(fc.array(opArb, { maxLength: 6 }), {
    minLength: RUN_DATES.length,
    maxLength: RUN_DATES.length,
  }),
  recurring: fc.array(
    fc.record({ customer: fc.nat(2), cents: fc.integer({ min: 500, max: 9_000 }), arrears: fc.boolean() }),
    { maxLength: 2 },
  ),
  // A customer pays by autopay one time in four, so a good share of sequences have none (undo runs only
  // then: an autopay charge goes out at once and would stop it).
  autopay: fc.array(fc.constantFrom(false, false, false, true), { minLength: 3, maxLength: 3 }),
  undo: fc.array(fc.boolean(), { minLength: RUN_DATES.length, maxLength: RUN_DATES.length }),
  dueDays: fc.constantFrom(0, 10, 15),
  lateFees: fc.record({
    flag: fc.constantFrom<LateFeeTerms["flag"]>("N", "1", "1", "2", "3"),
    flat30: fc.integer({ min: 100, max: 1_500 }),
    percent60: fc.integer({ min: 1, max: 5 }),
    percent90: fc.integer({ min: 1, max: 5 }),
  }),
});
type Sequence = typeof sequenceArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * Business "today" is `date` from now on: a clock shifted to noon of that day that keeps ticking
 * (jobs wait on time passing), in the provider's time zone's day whatever its offset.
 */
function setToday(date: string): void {
  const offset = Date.parse(`${date}T12:00:00Z`) - Date.now();
  setClock({ now: () => new Date(Date.now() + offset) });
}

async function makeClient(sequence: Sequence) {
  clientNo += 1;
  const db = testApp.db;
  const [client] = await db
    .insert(clients)
    .values({
      clientNo,
      clientName: `Model ${String(clientNo)}`,
      normalCycle: CYCLE,
      clientStartDate: shiftDate(OPENED, -150),
      dateLastBilling: OPENED,
      financeFlag: sequence.lateFees.flag,
      thirtyDayRateOrPercent: "rate",
      dayCharge30Day: money(sequence.lateFees.flat30),
      sixtyDayRateOrPercent: "percent",
      dayFinanceRate60Day: String(sequence.lateFees.percent60),
      ninetyDayRateOrPercent: "percent",
      dayFinanceRate90Day: String(sequence.lateFees.percent90),
      dueDays: sequence.dueDays,
      address1: "1 Main St",
      city: "Austin",
      state: "TX",
      zip: "73301",
      ...gatewayAccountFields(testApp.config.secretsKey, ACCOUNT),
    })
    .returning({ id: clients.id });
  if (!client) throw new Error("client not made");
  const codeIds = {} as Record<Kind, number>;
  for (const [no, kind] of [
    [100, "charge"],
    [200, "payment"],
    [300, "adjust"],
    [400, "debit"],
  ] as const) {
    const [row] = await db
      .insert(codes)
      .values({ clientId: client.id, code: no, description: kind, codeType: kind })
      .returning({ id: codes.id });
    codeIds[kind] = row?.id ?? 0;
  }
  const customerIds: number[] = [];
  const model: ModelCustomer[] = [];
  for (let no = 1; no <= 3; no++) {
    const autopay = sequence.autopay[no - 1] ?? false;
    const [row] = await db
      .insert(customers)
      .values({
        clientId: client.id,
        customerNo: no,
        customerName: `Customer ${String(no)}`,
        address1: "2 Oak St",
        city: "Austin",
        state: "TX",
        zip: "73301",
        openDate: shiftDate(OPENED, -150),
        autopayFlag: autopay,
      })
      .returning({ id: customers.id });
    const customerId = row?.id ?? 0;
    customerIds.push(customerId);
    model.push({ entries: [], statements: [], invoices: [], recurring: [] });
    if (autopay) {
      cardIndex += 1;
      await storeCardOnFile(
        db,
        { url: sandbox.bp20postUrl, account: ACCOUNT },
        { clientId: client.id, customerId },
        luhnCard("4", cardIndex + 3800),
      );
    }
  }
  for (const charge of sequence.recurring) {
    await db.insert(recurringCharges).values({
      clientId: client.id,
      customerId: customerIds[charge.customer] ?? 0,
      codeId: codeIds.charge,
      description: "Monthly",
      rate: money(charge.cents),
      quantity: "1",
      amount: money(charge.cents),
      startMonth: 1,
      endMonth: 12,
      frequency: "monthly",
      arrears: charge.arrears,
      startDate: shiftDate(OPENED, -150),
      createdAt: new Date(`${shiftDate(OPENED, -150)}T12:00:00Z`),
    });
    model[charge.customer]?.recurring.push({ cents: charge.cents, arrears: charge.arrears });
  }
  return { clientId: client.id, codeIds, customerIds, model };
}

type World = Awaited<ReturnType<typeof makeClient>>;

async function post(world: World, customer: number, kind: Kind, cents: number, date: string): Promise<void> {
  const response = await admin.post(`/api/transactions/?client_id=${String(world.clientId)}`, {
    customer: world.customerIds[customer],
    code: world.codeIds[kind],
    description: kind,
    quantity: "1",
    rate: money(cents),
    serviceDate: date,
    force: true,
  });
  expect(response.status, response.text).toBe(201);
  const id = (response.body as { id: number }).id;
  world.model[customer]?.entries.push({
    id,
    kind,
    date,
    cents: signed(kind, cents),
    billedBy: null,
    voided: false,
    isVoid: false,
    invoice: null,
  });
}

async function applyOp(world: World, op: Op, previousRun: string, today: string): Promise<void> {
  const customer = world.model[op.customer];
  if (!customer) return;
  if (op.op === "post") {
    await post(world, op.customer, op.kind, op.cents, shiftDate(previousRun, op.day));
  } else if (op.op === "void" || op.op === "reverse") {
    // A void takes back an entry on an open invoice; a reversal one already billed (the spec's rules).
    const open = new Set(customer.invoices.filter((i) => i.status === "open").map((i) => i.id));
    const candidates = customer.entries.filter(
      (e) =>
        e.id > 0 &&
        !e.voided &&
        !e.isVoid &&
        (op.op === "void" ? e.invoice !== null && open.has(e.invoice) : e.billedBy !== null),
    );
    const target = candidates[op.pick % Math.max(1, candidates.length)];
    if (!target) return;
    const action = op.op === "void" ? "void_transaction" : "reversal";
    const response = await admin.post(
      `/api/transactions/${String(target.id)}/${action}/?client_id=${String(world.clientId)}`,
      {},
    );
    expect(response.status, response.text).toBe(201);
    target.voided = true;
    // Dated today (the business date), opposite in sign, in the same box as what it offsets.
    const offset = response.body as { id: number; invoice?: number | null };
    customer.entries.push({
      id: offset.id,
      kind: target.kind,
      date: today,
      cents: -target.cents,
      billedBy: null,
      voided: false,
      isVoid: true,
      invoice: offset.invoice ?? null,
      recurring: target.recurring,
    });
  } else if (op.op === "invoice") {
    const made = await admin.post(`/api/invoices/bulk-add-invoices/?client_id=${String(world.clientId)}`, {
      customer_ids: [world.customerIds[op.customer]],
    });
    expect(made.status, made.text).toBe(201);
    const invoice = (made.body as { results: { id: number }[] }).results[0];
    if (!invoice) return;
    const detail = (await admin.get(`/api/invoices/${String(invoice.id)}/`, { client_id: world.clientId }))
      .body as { transactions: { id: number }[] };
    const held = new Set(detail.transactions.map((t) => t.id));
    for (const e of customer.entries) if (held.has(e.id)) e.invoice = invoice.id;
    customer.invoices.push({ id: invoice.id, status: "open" });
    if (op.close && held.size > 0) {
      const closed = await admin.post(
        `/api/invoices/${String(invoice.id)}/close/?client_id=${String(world.clientId)}`,
        {},
      );
      expect(closed.status, closed.text).toBe(200);
      const own = customer.invoices.at(-1);
      if (own) own.status = "closed";
    }
  }
}

type Line = { serviceDate: string; ledger_amount: string };
const lineKeys = (lines: readonly Line[]) => lines.map((l) => `${l.serviceDate} ${l.ledger_amount}`).sort();

/** The statement of a customer dated `date`, as the API shows it. */
async function statementOf(
  world: World,
  customerId: number,
  date: string,
): Promise<StatementDetail & { payCode: string }> {
  const [row] = await testApp.db
    .select({ id: statements.id, payCode: statements.payCode })
    .from(statements)
    .where(
      and(
        eq(statements.clientId, world.clientId),
        eq(statements.customerId, customerId),
        eq(statements.statementDate, date),
      ),
    );
  expect(row, `a statement of customer ${String(customerId)} on ${date}`).toBeDefined();
  const response = await admin.get(`/api/statements/${String(row?.id)}/`, { client_id: world.clientId });
  expect(response.status, response.text).toBe(200);
  return { ...statementDetailSchema.parse(response.body), payCode: row?.payCode ?? "" };
}

/** Runs the cycle for the world's client on `runDate` and has the model make its statements. */
async function runAndModel(world: World, sequence: Sequence, runDate: string, previousRun: string) {
  const run = await runProductionCycle(admin, CYCLE, { run_date: runDate, client_ids: [world.clientId] });
  expect(run.status, JSON.stringify(run)).toBe("done");
  const carried: Set<number>[] = [];
  for (const customer of world.model) {
    for (const posting of runPostings(customer, runDate, shiftDate(previousRun, 1), sequence.lateFees)) {
      if (posting.kind === "late_fee") seen.lateFees += 1;
      customer.entries.push({
        id: -1,
        kind: posting.kind,
        date: posting.date,
        cents: posting.cents,
        billedBy: null,
        voided: false,
        isVoid: false,
        invoice: null,
        recurring: posting.recurring,
      });
    }
    const closed = new Set(customer.invoices.filter((i) => i.status === "closed").map((i) => i.id));
    makeStatement(customer, runDate, sequence.dueDays);
    carried.push(
      new Set(customer.invoices.filter((i) => closed.has(i.id) && i.status === "processed").map((i) => i.id)),
    );
  }
  return { run, carried };
}

/** Every statement of the run, the pay page and the customer's status against the model. */
async function compareRun(world: World, runDate: string, carried: Set<number>[]): Promise<void> {
  const list = await admin.get("/api/customers/", { client_id: world.clientId, as_of: runDate, limit: 10 });
  expect(list.status, list.text).toBe(200);
  const rows = (list.body as { results: unknown[] }).results.map((row) => customerListRowSchema.parse(row));
  for (const [index, customer] of world.model.entries()) {
    const customerId = world.customerIds[index] ?? 0;
    const expected = customer.statements.at(-1);
    if (!expected) throw new Error("the model made no statement");
    const actual = await statementOf(world, customerId, runDate);
    const where = `customer ${String(index + 1)}, statement of ${runDate}`;
    expect(
      {
        previous: actual.previous_balance,
        charges: actual.charges,
        lateFees: actual.late_fees,
        debits: actual.debit_adjustments,
        payments: actual.payments,
        credits: actual.credit_adjustments,
        newBalance: actual.new_balance,
        current: actual.current_balance,
        days30: actual.overdue_30_days,
        days60: actual.overdue_60_days,
        days90: actual.overdue_90_days,
        over90: actual.overdue_over_90_days,
      },
      where,
    ).toEqual({
      previous: money(expected.boxes.previous),
      charges: money(expected.boxes.charges),
      lateFees: money(expected.boxes.lateFees),
      debits: money(expected.boxes.debits),
      payments: money(expected.boxes.payments),
      credits: money(expected.boxes.credits),
      newBalance: money(expected.boxes.newBalance),
      current: money(expected.ageing.current),
      days30: money(expected.ageing.days30),
      days60: money(expected.ageing.days60),
      days90: money(expected.ageing.days90),
      over90: money(expected.ageing.over90),
    });
    const billed = customer.entries.filter((e) => e.billedBy === customer.statements.length - 1);
    expect(lineKeys(actual.transactions), `${where}: its lines`).toEqual(
      lineKeys(billed.map((e) => ({ serviceDate: e.date, ledger_amount: money(e.cents) }))),
    );
    expect(actual.invoices.map((i) => i.id).sort(), `${where}: the invoices it carried`).toEqual(
      [...(carried[index] ?? [])].sort(),
    );
    seen.invoicesCarried += actual.invoices.length;
    const page = await testApp.client().post("/api/payments/get-payment-info/", {
      statementId: statementPayToken(world.clientId, actual.payCode),
    });
    expect(page.status, page.text).toBe(200);
    const info = publicPaymentInfoSchema.parse(page.body);
    expect(
      { due: info.statement?.amount_due, dueDate: info.statement?.due_date },
      `${where}: its pay page`,
    ).toEqual({
      due: money(amountDueNow(customer)),
      dueDate: expected.dueDate,
    });
    // An earlier statement's pay link shows this one, whose balance it carried forward: the amount
    // the documents list shows as payable, never the earlier statement's own.
    const [earlier] = await testApp.db
      .select({ payCode: statements.payCode, num: statements.statementNum })
      .from(statements)
      .where(
        and(
          eq(statements.clientId, world.clientId),
          eq(statements.customerId, customerId),
          lt(statements.statementDate, runDate),
        ),
      )
      .orderBy(desc(statements.statementDate), desc(statements.id))
      .limit(1);
    if (earlier) {
      const old = await testApp.client().post("/api/payments/get-payment-info/", {
        statementId: statementPayToken(world.clientId, earlier.payCode),
      });
      expect(old.status, old.text).toBe(200);
      const shown = publicPaymentInfoSchema.parse(old.body).statement;
      expect(
        { due: shown?.amount_due, replaced: shown?.replaced_statement?.statement_num },
        `${where}: an earlier statement's pay page`,
      ).toEqual({ due: money(amountDueNow(customer)), replaced: earlier.num });
    }
    const status = rows.find((row) => row.id === customerId);
    const ageing = ageingAt(customer, runDate);
    expect(
      status && [
        status.balance,
        status.current_balance,
        status.overdue_30_days,
        status.overdue_60_days,
        status.overdue_90_days,
        status.overdue_over_90_days,
      ],
      `${where}: the customer's status`,
    ).toEqual(
      [
        balanceAt(customer, runDate),
        ageing.current,
        ageing.days30,
        ageing.days60,
        ageing.days90,
        ageing.over90,
      ].map(money),
    );
    seen.statements += 1;
  }
}

/**
 * What the gateway may answer an autopay charge: approved, declined, or scrubbed as a duplicate (the
 * sandbox, as BluePay, refuses the same card and amount again within minutes: a sequence's months pass
 * in seconds). Only an approved charge posts a payment.
 */
const GATEWAY_ANSWERS = ["approved", "declined", "duplicate"];

/** The run's autopay: each autopay customer with something due is charged exactly that. */
async function settleAutopay(
  world: World,
  sequence: Sequence,
  autopayJobId: number | null | undefined,
): Promise<void> {
  const due = world.model.map((customer, index) =>
    (sequence.autopay[index] ?? false) ? amountDueNow(customer) : 0,
  );
  if (!due.some((cents) => cents > 0)) return;
  expect(autopayJobId, "an autopay card run").toBeTruthy();
  const cards = await pollUntil(
    async () =>
      cardRunSchema.parse(
        (await admin.get(`/api/card-runs/${String(autopayJobId)}/`, { client_id: world.clientId })).body,
      ),
    (cardRun) => cardRun.job.status === "succeeded" || cardRun.job.status === "failed",
    60_000,
  ).catch(async (error: unknown) => {
    console.error(
      "card run stuck",
      JSON.stringify(
        (await admin.get(`/api/card-runs/${String(autopayJobId)}/`, { client_id: world.clientId })).body,
      ),
      JSON.stringify(
        await queryRows(
          testApp.db,
          sql`select status, message, amount::text, created_at::text from payment_attempts where client_id = ${world.clientId}`,
          z.object({ status: dbText, message: dbText, amount: dbDecimal, created_at: dbText }),
        ),
      ),
    );
    throw error;
  });
  if (cards.job.status !== "succeeded")
    console.error(
      "card run",
      JSON.stringify(cards),
      JSON.stringify(
        await queryRows(
          testApp.db,
          sql`select status, message, amount::text from payment_attempts where client_id = ${world.clientId}`,
          z.object({ status: dbText, message: dbText, amount: dbDecimal }),
        ),
      ),
    );
  expect(cards.job.status).toBe("succeeded");
  for (const [index, cents] of due.entries()) {
    if (cents <= 0) continue;
    const customerId = world.customerIds[index] ?? 0;
    const [attempt] = await queryRows(
      testApp.db,
      sql`select id, status, amount::text as amount, message from payment_attempts
          where client_id = ${world.clientId} and customer_id = ${customerId} and card_run_id = ${autopayJobId ?? 0}`,
      z.object({ id: dbInt, status: dbText, amount: dbDecimal, message: dbText }),
    );
    expect(
      attempt && { answered: GATEWAY_ANSWERS.includes(attempt.status), amount: attempt.amount },
      `customer ${String(index + 1)}'s autopay attempt: ${attempt?.status ?? "none"} ${attempt?.message ?? ""}`,
    ).toEqual({ answered: true, amount: money(cents) });
    if (attempt?.status !== "approved") continue;
    seen.autopayCharges += 1;
    const [payment] = await queryRows(
      testApp.db,
      sql`select id, service_date::text as service_date from transactions
          where client_id = ${world.clientId} and source_key = ${`payment-attempt:${String(attempt.id)}`}`,
      z.object({ id: dbInt, service_date: dbDate }),
    );
    expect(payment, "the autopay payment's ledger entry").toBeDefined();
    world.model[index]?.entries.push({
      id: Number(payment?.id),
      kind: "payment",
      date: String(payment?.service_date),
      cents: -cents,
      billedBy: null,
      voided: false,
      isVoid: false,
      invoice: null,
    });
  }
}

/** Undoes the client's part of a run (nothing of it went out) and waits for the undo job. */
async function undoRun(world: World, runId: number): Promise<void> {
  const asked = await admin.post(
    `/api/productionruns/${String(runId)}/undo/?client_id=${String(world.clientId)}`,
  );
  expect(asked.status, asked.text).toBe(202);
  const id = jobRunSchema.parse(asked.body).id;
  const job = await pollUntil(
    async () =>
      jobRunSchema.parse((await admin.get(`/api/jobs/${String(id)}/`, { client_id: world.clientId })).body),
    (candidate) => candidate.status === "succeeded" || candidate.status === "failed",
    60_000,
  );
  expect(job.status).toBe("succeeded");
}

const MONTH_CATEGORIES: MonthCategory[] = [
  "charges",
  "recurring",
  "late_fees",
  "payments",
  "credit_adjustments",
  "debit_adjustments",
];

/** Month end of "YYYY-MM". */
const monthEnd = (month: string) => shiftDate(`${shiftDate(`${month}-28`, 5).slice(0, 7)}-01`, -1);

/**
 * The Account Totals of each run's month against the model: receivables, each activity line (count
 * and total), ageing, statements produced.
 */
async function compareAccountTotals(world: World): Promise<void> {
  for (const runDate of RUN_DATES) {
    const month = runDate.slice(0, 7);
    const response = await admin.request(
      "GET",
      `/api/pdf/account-totals/${String(world.clientId)}/${month}`,
      {
        query: { format: "csv" },
      },
    );
    expect(response.status, response.text).toBe(200);
    const rows = response.text
      .trim()
      .split(/\r?\n/)
      .map((line) => line.split(","));
    const amount = (label: string) => rows.find((row) => row[2]?.startsWith(label))?.[4];
    const count = (label: string) => Number(rows.find((row) => row[2]?.startsWith(label))?.[3]);
    const end = monthEnd(month);
    const total = (pick: (customer: ModelCustomer) => number) =>
      money(world.model.reduce((sum, customer) => sum + pick(customer), 0));
    const ageing = (bucket: keyof ReturnType<typeof ageingAt>) => total((c) => ageingAt(c, end)[bucket]);
    const activity = monthActivity(world.model, `${month}-01`, end);
    const line = (category: MonthCategory) => {
      const row = rows.find((r) => r[0] === category && r[2]?.endsWith(" total"));
      return { count: Number(row?.[3]), amount: row?.[4] };
    };
    expect(
      Object.fromEntries(MONTH_CATEGORIES.map((category) => [category, line(category)])),
      `the activity lines of ${month}`,
    ).toEqual(
      Object.fromEntries(
        MONTH_CATEGORIES.map((category) => [
          category,
          { count: activity[category].count, amount: money(activity[category].cents) },
        ]),
      ),
    );
    expect(
      {
        opening: amount("Opening receivables"),
        closing: amount("Closing receivables"),
        current: amount("Current"),
        days30: amount("30 days"),
        days60: amount("60 days"),
        days90: amount("90 days"),
        over90: amount("Over 90 days"),
        statements: count("Statements produced"),
      },
      `the Account Totals of ${month}`,
    ).toEqual({
      opening: total((c) => balanceAt(c, shiftDate(`${month}-01`, -1))),
      closing: total((c) => balanceAt(c, end)),
      current: ageing("current"),
      days30: ageing("days30"),
      days60: ageing("days60"),
      days90: ageing("days90"),
      over90: ageing("over90"),
      statements: world.model.reduce(
        (sum, customer) => sum + customer.statements.filter((st) => st.date.startsWith(month)).length,
        0,
      ),
    });
  }
}

async function playSequence(sequence: Sequence): Promise<void> {
  const world = await makeClient(sequence);
  setToday(OPENED);
  for (const entry of sequence.opening)
    await post(world, entry.customer, "charge", entry.cents, shiftDate(OPENED, -entry.daysBack));
  let previousRun = OPENED;
  for (const [period, runDate] of RUN_DATES.entries()) {
    // The period's work is done on its run's day: voids are dated then, postings up to 36 days on.
    setToday(runDate);
    for (const op of sequence.periods[period] ?? []) await applyOp(world, op, previousRun, runDate);
    // The run is made on its autopay's charge day (the due date, at least the day after the run):
    // the card run's jobs wait for that day on the app's clock, so they charge at once, dated then.
    setToday(shiftDate(runDate, Math.max(1, sequence.dueDays)));
    const before = structuredClone(world.model);
    let { run, carried } = await runAndModel(world, sequence, runDate, previousRun);
    // Undo while nothing went out (an autopay charge goes out at once here), then run again.
    if (sequence.undo[period] && !sequence.autopay.some(Boolean)) {
      await undoRun(world, run.id);
      seen.undos += 1;
      world.model = before;
      ({ run, carried } = await runAndModel(world, sequence, runDate, previousRun));
    }
    // Autopay charges at once (the clock is on its day): settled first, then everything compared.
    const part = run.clients.find((item) => item.client_id === world.clientId);
    await settleAutopay(world, sequence, part?.autopay_job_id);
    await compareRun(world, runDate, carried);
    expect(await statementMismatches(testApp.db, { clientId: world.clientId })).toEqual([]);
    expect(await ledgerMismatches(testApp.db, { clientId: world.clientId })).toEqual([]);
    previousRun = runDate;
  }
  await compareAccountTotals(world);
  seen.sequences += 1;
}

describe("statements against an independent model", () => {
  it(
    "agree on random sequences of postings, voids, invoices, autopay and undo over consecutive runs",
    async () => {
      console.info(
        `statement model: seed ${String(SEED)}, ${String(RUNS)} sequences (STATEMENT_MODEL_SEED replays)`,
      );
      await fc.assert(fc.asyncProperty(sequenceArb, playSequence), {
        numRuns: RUNS,
        seed: SEED,
        endOnFailure: true,
      });
      console.info(
        `statement model: ${String(seen.sequences)} sequences, ${String(seen.statements)} statements compared, ` +
          `${String(seen.lateFees)} late fees, ${String(seen.autopayCharges)} autopay charges, ` +
          `${String(seen.invoicesCarried)} invoices carried, ${String(seen.undos)} undos`,
      );
      // The generated cases did what the model is about: these happened, not just could have.
      if (RUNS >= 10) {
        expect(seen.lateFees).toBeGreaterThan(0);
        expect(seen.autopayCharges).toBeGreaterThan(0);
        expect(seen.invoicesCarried).toBeGreaterThan(0);
        expect(seen.undos).toBeGreaterThan(0);
      }
    },
    300_000 + RUNS * 60_000,
  );
});
