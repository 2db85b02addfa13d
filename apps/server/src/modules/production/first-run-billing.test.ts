import { and, asc, eq, isNotNull } from "drizzle-orm";
import { addDays } from "@cyclebill/domain";
import { describe, expect, it } from "vitest";
import { clients, codes, customers, transactions } from "../../db/tables.js";
import { businessToday } from "../../clock.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import { createFirstRunClient } from "../../test-support/first-run-client.js";
import { admin, runProductionCycle, testApp, useProductionApp } from "../../test-support/production-app.js";
import { TEST_MAILING_ADDRESS } from "../../test-support/mailing-address.js";

// Issue 28 point 4 (no back-billing: a first run bills one cycle, a charge never bills before it
// and its customer existed) and closed periods on a run's own day. Fixed dates in 2025 for the
// first runs; the run's-day test runs on today, whatever day that is.

useProductionApp({ chunkSize: 10 });

const runCycle2 = (cycle: number, runDate: string, body: Record<string, unknown> = {}) =>
  runProductionCycle(admin, cycle, { run_date: runDate, ...body });

describe("no back-billing (issue 28 point 4)", () => {
  async function firstRunClient(clientNo: number, cycle: number, runDate: string, started: string) {
    return { ...(await createFirstRunClient(testApp.db, { clientNo, cycle, started })), runDate };
  }

  const postedFor = (clientId: number) =>
    testApp.db
      .select({ customerId: transactions.customerId, serviceDate: transactions.serviceDate })
      .from(transactions)
      .where(and(eq(transactions.clientId, clientId), isNotNull(transactions.recurringChargeId)))
      .orderBy(asc(transactions.customerId), asc(transactions.serviceDate));

  it("bills a client's first run one cycle, and a charge never before it and its customer existed", async () => {
    // Client start 400 days before the run: the run used to bill twelve months of every charge.
    const first = await firstRunClient(7001, 11, "2025-11-11", "2024-10-07");
    const old = await first.add(1, "2024-01-01", "2024-01-01");
    const fresh = await first.add(2, "2025-11-11", "2025-11-11");
    const freshArrears = await first.add(3, "2025-11-11", "2025-11-11", true);
    const run = await runCycle2(11, "2025-11-11");
    expect(run.status).toBe("done");
    expect(await postedFor(first.clientId)).toEqual([
      { customerId: old, serviceDate: "2025-11-01" },
      { customerId: fresh, serviceDate: "2025-11-11" },
    ]);
    void freshArrears;
  });

  it("catches up from the start date only when the admin asks, still never before a charge existed", async () => {
    const second = await firstRunClient(7002, 12, "2025-11-12", "2025-08-20");
    const old = await second.add(1, "2024-01-01", "2024-01-01");
    const recent = await second.add(2, "2025-10-15", "2025-10-15");
    const run = await runCycle2(12, "2025-11-12", { catch_up: true });
    expect(run.status).toBe("done");
    expect(await postedFor(second.clientId)).toEqual([
      { customerId: old, serviceDate: "2025-09-01" },
      { customerId: old, serviceDate: "2025-10-01" },
      { customerId: old, serviceDate: "2025-11-01" },
      { customerId: recent, serviceDate: "2025-11-01" },
    ]);
  });
});

describe("on a run's day (books closed through today)", () => {
  it("dates what the clock dates (a payment, a defaulted date) on the first open day, and refuses a chosen date", async () => {
    const today = businessToday();
    const [client] = await testApp.db
      .insert(clients)
      .values({
        clientNo: 7003,
        clientName: "Run today",
        normalCycle: 20,
        dateLastBilling: addDays(today, -30),
      })
      .returning({ id: clients.id });
    const id = client!.id;
    const [code] = await testApp.db
      .insert(codes)
      .values({ clientId: id, code: 200, description: "Payment", codeType: "payment" })
      .returning({ id: codes.id });
    const [customer] = await testApp.db
      .insert(customers)
      .values({ clientId: id, customerNo: 1, customerName: "Payer", ...TEST_MAILING_ADDRESS })
      .returning({ id: customers.id });
    expect((await runCycle2(20, today)).status).toBe("done");
    const chosen = await admin.request("POST", "/api/transactions/", {
      query: { client_id: id },
      body: { customer: customer!.id, code: code!.id, rate: "5", serviceDate: today },
    });
    expect(chosen.status).toBe(400);
    // Before: any payment on a run's day was refused, autopay's included.
    const defaulted = await admin.request("POST", "/api/transactions/", {
      query: { client_id: id },
      body: { customer: customer!.id, code: code!.id, rate: "5" },
    });
    expect(defaulted.status, JSON.stringify(defaulted.body)).toBe(201);
    const dates = await testApp.db
      .select({ serviceDate: transactions.serviceDate })
      .from(transactions)
      .where(eq(transactions.clientId, id));
    expect(dates.map((row) => row.serviceDate)).toEqual([addDays(today, 1)]);
    expect(await ledgerMismatches(testApp.db)).toEqual([]);
  });
});
