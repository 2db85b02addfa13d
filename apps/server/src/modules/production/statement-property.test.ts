import { startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import { cardRunSchema } from "@cyclebill/domain";
import fc from "fast-check";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businessToday } from "../../clock.js";
import { queryRows } from "../../db/query-rows.js";
import { clients, codes, customers, recurringCharges } from "../../db/tables.js";
import { recurringFrequencies } from "../../db/schema/billing.js";
import { pollUntil } from "../../test-support/poll-until.js";
import { runProductionCycle } from "../../test-support/production-app.js";
import { luhnCard, storeCardOnFile, gatewayAccountFields } from "../../test-support/stored-cards.js";
import {
  createTenantFixture,
  startTestApp,
  type ApiClient,
  type TestApp,
} from "../../test-support/test-app.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import { statementMismatches } from "../ledger/statement-mismatches.js";

// Issue 28 "Statements that prove themselves": random small ledgers (charges, payments, credits,
// debits, voids, late-fee tiers, recurring charges of every frequency in Advance and Arrears, entries back-dated
// into the open period, autopay customers with a stored card charged their statement's amount due by
// the run's card run against the gateway sandbox, approved or declined) billed by consecutive monthly
// runs through the API and the job path; after each run and its autopay the doctor finds no
// statement and no balance mismatch. STATEMENT_PROPERTY_RUNS sets how
// many ledgers are tried (3 by default, to keep CI short).

const RUNS = Number(process.env.STATEMENT_PROPERTY_RUNS ?? 3);
const CYCLES = 3;
const CYCLE = 10;

const ACCOUNT = { accountId: "100000002828", secretKey: "STATEMENTPROPERTYSECRETKEY000028" };

let sandbox: Sandbox;
let testApp: TestApp;
let admin: ApiClient;
let clientNo = 7000;
let cardIndex = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ accounts: [ACCOUNT], demoAccount: false });
  testApp = await startTestApp({
    jobs: { chunkSize: 10 },
    // A long time-out: on a loaded machine an answer counted lost is retried with growing delays.
    bluepay: { url: sandbox.bp20postUrl, mode: "TEST", timeoutMs: 30_000 },
  });
  admin = testApp.client((await createTenantFixture(testApp)).adminToken);
});

afterAll(async () => {
  await testApp?.close();
  await sandbox?.close();
});

/** A distinct Luhn-valid card per customer: the sandbox scrubs duplicates by card and amount. */
function nextCard(): string {
  cardIndex += 1;
  return luhnCard("4", cardIndex + 2800);
}

/** A card stored as the staff form stores one (a $0.00 AUTH whose TRANS_ID is the token). */
const storeCard = (clientId: number, customerId: number) =>
  storeCardOnFile(
    testApp.db,
    { url: sandbox.bp20postUrl, account: ACCOUNT },
    { clientId, customerId },
    nextCard(),
  );

/** The 10th of the month `back` months before today's month. */
function runDateBack(back: number): string {
  const [year, month] = businessToday().split("-").map(Number) as [number, number];
  const index = year * 12 + (month - 1) - back;
  return `${String(Math.floor(index / 12))}-${String((index % 12) + 1).padStart(2, "0")}-10`;
}

function addDaysTo(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

type Kind = "charge" | "payment" | "adjust" | "debit";
type Op =
  { op: "post"; kind: Kind; customer: number; cents: number; day: number } | { op: "void"; pick: number };

const postOp = fc.record({
  op: fc.constant("post" as const),
  kind: fc.constantFrom<Kind>("charge", "payment", "adjust", "debit"),
  customer: fc.nat(2),
  cents: fc.integer({ min: 1, max: 50_000 }),
  // Days after the previous run, back-dated within the open period (before the next run).
  day: fc.integer({ min: 1, max: 27 }),
});
const voidOp = fc.record({ op: fc.constant("void" as const), pick: fc.nat(40) });
const ledgerArb = fc.record({
  opening: fc.array(fc.record({ customer: fc.nat(2), cents: fc.integer({ min: 1, max: 50_000 }) }), {
    maxLength: 3,
  }),
  periods: fc.array(fc.array(fc.oneof(postOp, postOp, voidOp), { maxLength: 6 }), {
    minLength: CYCLES,
    maxLength: CYCLES,
  }),
  recurring: fc.array(
    fc.record({
      customer: fc.nat(2),
      frequency: fc.constantFrom(...recurringFrequencies),
      arrears: fc.boolean(),
      cents: fc.integer({ min: 100, max: 20_000 }),
    }),
    { maxLength: 3 },
  ),
  // Which of the three customers pay by autopay (a stored card; the sandbox approves odd dollars).
  autopay: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
  // Late fees: none, or from 30/60/90 days overdue; a flat 30-day fee and percent 60/90-day tiers.
  lateFees: fc.record({
    flag: fc.constantFrom("N", "1", "2", "3"),
    flat: fc.integer({ min: 100, max: 1_500 }),
    percent60: fc.integer({ min: 1, max: 5 }),
    percent90: fc.integer({ min: 1, max: 5 }),
  }),
});

const money = (cents: number) => `${String(Math.floor(cents / 100))}.${String(cents % 100).padStart(2, "0")}`;

const runCycle = (clientId: number, runDate: string) =>
  runProductionCycle(admin, CYCLE, { run_date: runDate, client_ids: [clientId] });

describe("statements prove themselves on random ledgers", () => {
  it("after every run of consecutive cycles the doctor finds no mismatch", async () => {
    let statementsSeen = 0;
    let lateFeesSeen = 0;
    let autopaySeen = 0;
    await fc.assert(
      fc.asyncProperty(ledgerArb, async (ledger) => {
        clientNo += 1;
        const runDates = Array.from({ length: CYCLES }, (_, k) => runDateBack(CYCLES - 1 - k));
        const opened = runDateBack(CYCLES);
        const [client] = await testApp.db
          .insert(clients)
          .values({
            clientNo,
            clientName: `Property ${String(clientNo)}`,
            normalCycle: CYCLE,
            clientStartDate: addDaysTo(opened, -40),
            dateLastBilling: opened,
            financeFlag: ledger.lateFees.flag,
            thirtyDayRateOrPercent: "rate",
            dayCharge30Day: money(ledger.lateFees.flat),
            sixtyDayRateOrPercent: "percent",
            dayFinanceRate60Day: String(ledger.lateFees.percent60),
            ninetyDayRateOrPercent: "percent",
            dayFinanceRate90Day: String(ledger.lateFees.percent90),
            address1: "1 Main St",
            city: "Austin",
            state: "TX",
            zip: "73301",
            ...gatewayAccountFields(testApp.config.secretsKey, ACCOUNT),
          })
          .returning({ id: clients.id });
        if (!client) throw new Error("client not made");
        const clientId = client.id;
        const codeIds = {} as Record<Kind, number>;
        for (const [no, kind] of [
          [100, "charge"],
          [200, "payment"],
          [300, "adjust"],
          [400, "debit"],
        ] as const) {
          const [row] = await testApp.db
            .insert(codes)
            .values({ clientId, code: no, description: kind, codeType: kind })
            .returning({ id: codes.id });
          codeIds[kind] = row?.id ?? 0;
        }
        const customerIds: number[] = [];
        for (let no = 1; no <= 3; no++) {
          const [row] = await testApp.db
            .insert(customers)
            .values({
              clientId,
              customerNo: no,
              customerName: `Customer ${String(no)}`,
              address1: "2 Oak St",
              city: "Austin",
              state: "TX",
              zip: "73301",
              openDate: addDaysTo(opened, -40),
              autopayFlag: ledger.autopay[no - 1] ?? false,
            })
            .returning({ id: customers.id });
          customerIds.push(row?.id ?? 0);
          if (ledger.autopay[no - 1]) await storeCard(clientId, row?.id ?? 0);
        }
        for (const charge of ledger.recurring)
          await testApp.db.insert(recurringCharges).values({
            clientId,
            customerId: customerIds[charge.customer] ?? 0,
            codeId: codeIds.charge,
            description: `Recurring ${charge.frequency}`,
            rate: money(charge.cents),
            quantity: "1",
            amount: money(charge.cents),
            startMonth: 1,
            endMonth: 12,
            frequency: charge.frequency,
            arrears: charge.arrears,
            startDate: addDaysTo(opened, -40),
          });

        const posted: number[] = [];
        const post = async (kind: Kind, customer: number, cents: number, serviceDate: string) => {
          const response = await admin.post(`/api/transactions/?client_id=${String(clientId)}`, {
            customer: customerIds[customer],
            code: codeIds[kind],
            description: kind,
            quantity: "1",
            rate: money(cents),
            serviceDate,
            force: true,
          });
          expect(response.status, response.text).toBe(201);
          posted.push((response.body as { id: number }).id);
        };
        for (const entry of ledger.opening) await post("charge", entry.customer, entry.cents, opened);

        let previous = opened;
        for (const [period, ops] of ledger.periods.entries()) {
          const runDate = runDates[period] ?? "";
          for (const op of ops as Op[]) {
            if (op.op === "post") {
              const day = addDaysTo(previous, op.day);
              await post(op.kind, op.customer, op.cents, day < runDate ? day : runDate);
            } else if (posted.length > 0) {
              // Voids are dated today; an entry already voided (or a voiding entry) is refused.
              const target = posted[op.pick % posted.length];
              const voided = await admin.post(
                `/api/transactions/${String(target)}/void_transaction/?client_id=${String(clientId)}`,
                {},
              );
              expect([201, 400, 409], voided.text).toContain(voided.status);
            }
          }
          const run = await runCycle(clientId, runDate);
          expect(run.status, JSON.stringify(run)).toBe("done");
          // Its autopay, charged on the date the statements announced: when that is past (at once),
          // it has posted before the books are proved; a later one waits for its day.
          const autopayId = run.clients.find((part) => part.client_id === clientId)?.autopay_job_id;
          const [announced] = await queryRows<{ day: string | null }>(
            testApp.db,
            sql`select max(autopay_charge_date)::text as day from statements
                where client_id = ${clientId} and statement_date = ${runDate}`,
          );
          if (autopayId && announced?.day && announced.day <= businessToday()) {
            const cards = await pollUntil(
              async () =>
                cardRunSchema.parse(
                  (await admin.get(`/api/card-runs/${String(autopayId)}/`, { client_id: clientId })).body,
                ),
              (cardRun) => cardRun.job.status === "succeeded" || cardRun.job.status === "failed",
              300_000,
            );
            expect(cards.job.status).toBe("succeeded");
            autopaySeen += cards.count;
          }
          const scope = { clientId };
          expect(await statementMismatches(testApp.db, scope)).toEqual([]);
          expect(await ledgerMismatches(testApp.db, scope)).toEqual([]);
          lateFeesSeen += run.figures.late_fees.count;
          statementsSeen +=
            (
              await queryRows<{ n: number }>(
                testApp.db,
                sql`select count(*)::int as n from statements where client_id = ${clientId} and statement_date = ${runDate}`,
              )
            )[0]?.n ?? 0;
          previous = runDate;
        }
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    // The runs drew statements (the opening charges and Advance recurring charges always bill).
    expect(statementsSeen).toBeGreaterThan(0);
    console.info(
      `${String(RUNS)} ledgers: ${String(statementsSeen)} statements, ${String(lateFeesSeen)} late fees, ${String(autopaySeen)} autopay charges`,
    );
  }, 1_200_000);
});
