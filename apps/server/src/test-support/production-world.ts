import { and, asc, eq, isNotNull } from "drizzle-orm";
import { productionRunSchema } from "@cyclebill/domain";
import type { ProductionRun } from "@cyclebill/domain";
import { beforeAll, expect } from "vitest";
import {
  clients,
  codes,
  customers,
  recurringCharges,
  routePlans,
  routes,
  transactions,
} from "../db/tables.js";
import { postEntries } from "../modules/ledger/post-entries.js";
import { monthlyCharge, serviceCharge } from "./ledger-rows.js";
import { pollUntil } from "./poll-until.js";
import { admin, clientId, fixture, testApp, useProductionApp } from "./production-app.js";
import { insertCustomer } from "./test-customers.js";

// The world of production.test.ts, kept apart so the test reads as the run it checks; the bindings
// are filled by useProductionWorld's hooks.

// A cycle-7 client with a customer for every rule, a second cycle-7 client that is inactive, and a
// third with bill criteria 03; a fixed run date, so the test passes on any day.
export const CYCLE = 7;
export const RUN_DATE = "2025-03-07";

export { admin, clientId as clientA, fixture, testApp } from "./production-app.js";
export let clientC: number;
export const ids: Record<string, number> = {};

export async function addCustomer(
  clientId: number,
  no: number,
  name: string,
  fields: Partial<typeof customers.$inferInsert> = {},
) {
  const id = await insertCustomer(testApp.db, {
    clientId,
    customerNo: no,
    customerName: name,
    lastName: name,
    ...fields,
  });
  ids[name] = id;
  return id;
}

export async function waitForRun(id: number): Promise<ProductionRun> {
  return pollUntil(
    async () => {
      const response = await admin.get(`/api/productionruns/${id}/`);
      expect(response.status).toBe(200);
      return productionRunSchema.parse(response.body);
    },
    (run) => run.status === "done" || run.status === "failed",
    60_000,
  );
}

export const runPostings = () =>
  testApp.db
    .select({
      customerId: transactions.customerId,
      amount: transactions.amount,
      type: transactions.transactionType,
      description: transactions.description,
    })
    .from(transactions)
    .where(isNotNull(transactions.productionRunId))
    .orderBy(asc(transactions.customerId), asc(transactions.id));

/** Starts the server and makes the clients and customers before the file's tests; closes it after. */
export function useProductionWorld(): void {
  useProductionApp({
    chunkSize: 4,
    client: {
      normalCycle: CYCLE,
      dateLastBilling: "2025-02-07",
      financeFlag: "1",
      thirtyDayRateOrPercent: "rate",
      dayCharge30Day: "5.00",
      sixtyDayRateOrPercent: "percent",
      dayFinanceRate60Day: "2",
      ninetyDayRateOrPercent: "percent",
      dayFinanceRate90Day: "3",
      fiscalYearResetMonth: 7,
      numberBillsSentYtd: 40,
    },
  });
  beforeAll(async () => {
    const clientA = clientId;
    await testApp.db
      .update(clients)
      .set({ normalCycle: CYCLE, statusCode: "I" })
      .where(eq(clients.id, fixture.b.clientId));
    const [third] = await testApp.db
      .insert(clients)
      .values({
        clientNo: 90_000 + (clientA % 1000),
        clientName: "Criteria 03 client",
        normalCycle: 99,
        billCriteria: "03",
        dateLastBilling: "2025-02-28",
      })
      .returning({ id: clients.id });
    clientC = third?.id ?? 0;

    const [charge, lateFee] = await testApp.db
      .insert(codes)
      .values([
        { clientId: clientA, code: 100, description: "Service", codeType: "charge" },
        { clientId: clientA, code: -1, description: "Late fee", codeType: "charge" },
        { clientId: clientC, code: 100, description: "Service", codeType: "charge" },
      ])
      .returning({ id: codes.id });
    const [cCharge] = await testApp.db
      .select({ id: codes.id })
      .from(codes)
      .where(and(eq(codes.clientId, clientC), eq(codes.code, 100)));
    // Open since 2024, so its charges bill February in arrears (a charge never bills before its customer).
    const mail = await addCustomer(clientA, 11, "mail-30", { pullFlag: "A", openDate: "2024-01-01" });
    const email = await addCustomer(clientA, 12, "email-60", { pullFlag: "E", email: "e@example.com" });
    const both = await addCustomer(clientA, 13, "both-90", {
      pullFlag: "M",
      email: "m@example.com",
      financeFlag: "3",
    });
    const temp = await addCustomer(clientA, 14, "pull-T", { pullFlag: "T", financeFlag: "N" });
    await addCustomer(clientA, 15, "pull-P", { pullFlag: "P" });
    await addCustomer(clientA, 16, "pull-N", { pullFlag: "N" });
    await addCustomer(clientA, 17, "pull-L", { pullFlag: "L" });
    const stopped = await addCustomer(clientA, 18, "delete-D");
    const keeps = await addCustomer(clientA, 19, "delete-S");
    const skip = await addCustomer(clientA, 20, "group-skip");
    const pause = await addCustomer(clientA, 21, "group-pause");
    await addCustomer(clientC, 1, "c-zero");
    const cOwes = await addCustomer(clientC, 2, "c-owes");

    const entry = (customerId: number, amount: string, serviceDate: string, codeId = charge?.id ?? 0) =>
      serviceCharge(customerId, codeId, amount, serviceDate);
    await testApp.db.transaction(async (tx) => {
      await postEntries(tx, { clientId: clientA }, [
        entry(mail, "100.00", "2025-01-20"), // 46 days: the 30 tier
        entry(email, "200.00", "2024-12-20"), // 77 days: the 60 tier
        entry(both, "33.33", "2024-11-01"), // 126 days: over 90
        entry(temp, "50.00", "2024-11-01"),
        entry(stopped, "10.00", "2025-01-20"),
        entry(keeps, "10.00", "2025-03-01"),
      ]);
      await postEntries(tx, { clientId: clientC }, [entry(cOwes, "10.00", "2025-03-01", cCharge?.id)]);
    });
    // Marked for deletion after their charges were posted (marked customers take no new charges).
    await testApp.db.update(customers).set({ deleteFlag: "D" }).where(eq(customers.id, stopped));
    await testApp.db.update(customers).set({ deleteFlag: "S" }).where(eq(customers.id, keeps));
    const charges = [mail, keeps, stopped].map((customerId) =>
      monthlyCharge({ clientId: clientA, customerId, codeId: charge?.id ?? 0 }, "25.00", {
        createdAt: new Date("2024-01-01T12:00:00Z"),
      }),
    );
    await testApp.db.insert(recurringCharges).values([
      ...charges,
      // Arrears, twice a month: February's two visits on Feb 28.
      {
        ...charges[0]!,
        description: "Visits",
        rate: "7.50000",
        amount: "7.50",
        frequency: "semimonthly",
        arrears: true,
      },
      // Out of season in March.
      { ...charges[0]!, description: "Summer", startMonth: 6, endMonth: 8 },
    ]);
    const [group] = await testApp.db
      .insert(routes)
      .values({ clientId: clientA, routeName: "North" })
      .returning({ id: routes.id });
    await testApp.db.insert(routePlans).values([
      { clientId: clientA, routeId: group?.id ?? 0, customerId: skip, stop: 0, billIndicatorFlag: "skip" },
      { clientId: clientA, routeId: group?.id ?? 0, customerId: pause, stop: 1, billIndicatorFlag: "pause" },
    ]);
    void lateFee;
  });
}
