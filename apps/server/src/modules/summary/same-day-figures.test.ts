import { addDays, addAmounts, sumAmounts } from "@cyclebill/domain";
import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { businessToday } from "../../clock.js";
import { clients, codes, customers } from "../../db/tables.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import { TEST_MAILING_ADDRESS } from "../../test-support/mailing-address.js";
import {
  admin,
  fixture,
  runProductionCycle,
  testApp,
  useProductionApp,
} from "../../test-support/production-app.js";

// Issue 41 point 3: after a run closes the books through today, what the clock dates today (a
// payment, a reversal) is credited on the first open day, as a bank posts after its cut-off. Every
// figure of "now" counts it (and any entry the clerk chose to date later) as posted: Home's A/R and
// balance, the customers' balances, the Status tab's ageing, the customers CSV and Account Totals
// all agree. The test runs on today, whatever day that is.

useProductionApp({ chunkSize: 10 });

const CYCLE = 23;
let clientId: number;
let customerIds: number[];
let chargeCode: number;
let paymentCode: number;
const today = businessToday();
const tomorrow = addDays(today, 1);

const post = (body: Record<string, unknown>) =>
  admin.request("POST", "/api/transactions/", { query: { client_id: clientId }, body });

const agedSchema = z.object({
  current_balance: z.string(),
  overdue_30_days: z.string(),
  overdue_60_days: z.string(),
  overdue_90_days: z.string(),
  overdue_over_90_days: z.string(),
});
const agedTotal = (row: z.output<typeof agedSchema>) =>
  sumAmounts([
    row.current_balance,
    row.overdue_30_days,
    row.overdue_60_days,
    row.overdue_90_days,
    row.overdue_over_90_days,
  ]);

/** The export's rows by column (its cells hold no commas in this test's customers). */
function csvRows(text: string): Record<string, string>[] {
  const [header = "", ...lines] = text.trim().split("\r\n");
  const columns = header.split(",");
  return lines.map((line) =>
    Object.fromEntries(line.split(",").map((cell, index) => [columns[index], cell])),
  );
}

beforeAll(async () => {
  const [client] = await testApp.db
    .insert(clients)
    .values({
      clientNo: 7301,
      clientName: "Same day",
      normalCycle: CYCLE,
      dateLastBilling: addDays(today, -30),
    })
    .returning({ id: clients.id });
  clientId = client!.id;
  const made = await testApp.db
    .insert(codes)
    .values([
      { clientId, code: 100, description: "Service", codeType: "charge" },
      { clientId, code: 200, description: "Payment", codeType: "payment" },
    ])
    .returning({ id: codes.id });
  [chargeCode, paymentCode] = made.map((row) => row.id) as [number, number];
  const inserted = await testApp.db
    .insert(customers)
    .values(
      [1, 2].map((no) => ({
        clientId,
        customerNo: no,
        customerName: `Payer ${no}`,
        openDate: addDays(today, -200),
        ...TEST_MAILING_ADDRESS,
      })),
    )
    .returning({ id: customers.id });
  customerIds = inserted.map((row) => row.id);
  // An old debt and a recent one, both billed by today's run.
  for (const [index, id] of customerIds.entries()) {
    expect(
      (await post({ customer: id, code: chargeCode, rate: "100.00", serviceDate: addDays(today, -45) }))
        .status,
    ).toBe(201);
    expect(
      (
        await post({
          customer: id,
          code: chargeCode,
          rate: `${20 + index}.00`,
          serviceDate: addDays(today, -5),
        })
      ).status,
    ).toBe(201);
  }
  expect((await runProductionCycle(admin, CYCLE, { run_date: today, client_ids: [clientId] })).status).toBe(
    "done",
  );
  // After the run: a payment the clock dates (credited tomorrow) and a charge the clerk dates later.
  const paid = await post({ customer: customerIds[0], code: paymentCode, rate: "7.00" });
  expect(paid.status, paid.text).toBe(201);
  expect(
    (await post({ customer: customerIds[1], code: chargeCode, rate: "3.00", serviceDate: addDays(today, 3) }))
      .status,
  ).toBe(201);
}, 180_000);

describe("figures after a same-day run (issue 41 point 3)", () => {
  it("credits today's payment on the first open day, as the transaction says", async () => {
    const list = await admin.request("GET", "/api/transactions/", {
      query: { client_id: clientId, customer: customerIds[0], code_type: "payment" },
    });
    expect(list.status).toBe(200);
    const rows = z
      .object({ results: z.array(z.object({ serviceDate: z.string() })) })
      .parse(list.body).results;
    expect(rows.map((row) => row.serviceDate)).toContain(tomorrow);
  });

  it("Home, the customer list, the Status tab, the customers CSV and Account Totals agree", async () => {
    const list = await admin.request("GET", "/api/customers/", { query: { client_id: clientId, limit: 50 } });
    expect(list.status).toBe(200);
    const listed = z
      .object({ results: z.array(agedSchema.extend({ id: z.number(), total_balance: z.string() })) })
      .parse(list.body).results;
    const balances = sumAmounts(listed.map((row) => row.total_balance));
    // 2 × 100 + 20 + 21, less the payment of 7, plus the later charge of 3.
    expect(balances).toBe("237.00");
    for (const row of listed) expect(agedTotal(row), `list row ${row.id}`).toBe(row.total_balance);

    const home = z
      .object({
        arCurrentBalance: z.string(),
        arOverdue30: z.string(),
        arOverdue60: z.string(),
        arOverdue90: z.string(),
        newBalance: z.string(),
      })
      .parse((await admin.get(`/api/summary-data/client/${clientId}`)).body);
    expect(home.newBalance).toBe(balances);
    expect(sumAmounts([home.arCurrentBalance, home.arOverdue30, home.arOverdue60, home.arOverdue90])).toBe(
      balances,
    );

    for (const id of customerIds) {
      const detail = agedSchema
        .extend({ total_balance: z.string() })
        .parse((await admin.get(`/api/customers/${id}/`, { client_id: clientId })).body);
      expect(agedTotal(detail), `Status tab ${id}`).toBe(detail.total_balance);
      const summary = agedSchema
        .extend({ balance: z.string() })
        .parse((await admin.get(`/api/summary-data/customer/${id}`, { client_id: clientId })).body);
      expect(summary.balance).toBe(detail.total_balance);
      expect(agedTotal(summary), `Status summary ${id}`).toBe(summary.balance);
    }

    const zip = await fetch(`${testApp.baseUrl}/api/csv/customers/${clientId}`, {
      headers: { authorization: `Bearer ${fixture.adminToken}` },
    });
    expect(zip.status).toBe(200);
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    const rows = z
      .array(agedSchema.extend({ total_balance: z.string() }))
      .parse(csvRows(strFromU8(files["customers.csv"] ?? new Uint8Array())));
    for (const row of rows) expect(agedTotal(row), "customers CSV").toBe(row.total_balance);

    const month = addDays(today, 3).slice(0, 7);
    const totals = await admin.request("GET", `/api/pdf/account-totals/${clientId}/${month}`, {
      query: { format: "csv" },
    });
    expect(totals.status).toBe(200);
    expect(totals.text).toContain(`${balances}`);
    expect(addAmounts(balances, "0.00")).toBe(balances);
  });

  it("keeps every balance equal to its ledger", async () => {
    expect(await ledgerMismatches(testApp.db)).toEqual([]);
  });
});
