import { sql } from "drizzle-orm";
import { addAmounts, addBuckets, addDays, ageBalance, emptyBuckets, sumAmounts } from "@cyclebill/domain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../../db/query-rows.js";
import { dbDate, dbDecimal, dbInt } from "../../db/row-schemas.js";
import { clients, codes, customers } from "../../db/tables.js";
import { fixture, testApp, useTenantApp } from "../../test-support/tenant-app.js";
import { createCodes, TENS_CODES } from "../../test-support/test-codes.js";
import { seedDemo } from "../demo/seed-demo.js";
import { postTransaction } from "../transactions/post-transaction.js";
import { ageClientTotals, ageCustomerBalances } from "./customer-ageing.queries.js";
import { businessToday } from "../../clock.js";

useTenantApp();

const daysBefore = (asOf: string, days: number) => addDays(asOf, -days);
const ledgerRowSchema = z.object({ customer_id: dbInt, service_date: dbDate, ledger_amount: dbDecimal });

describe("GET /api/summary-data/client/{id}", () => {
  it("computes counts, ageing, month-to-date activity and balance from the ledger", async () => {
    const clientId = fixture.a.clientId;
    const today = businessToday();
    const { charge, payment, credit, debit } = await createCodes(testApp.db, clientId, TENS_CODES);
    const [alice, bob] = await testApp.db
      .insert(customers)
      .values([
        { clientId, customerNo: 101, customerName: "Alice" },
        { clientId, customerNo: 102, customerName: "Bob" },
        { clientId, customerNo: 103, customerName: "Gone", deleted: true },
      ])
      .returning();
    const post = (customerId: number, codeId: number, rate: string, daysAgo: number) =>
      postTransaction(
        testApp.db,
        { clientId },
        { customerId, codeId, description: "x", rate, serviceDate: daysBefore(today, daysAgo) },
      );
    // Alice: 100 at 100 days, 50 at 45 days, 40 today; paid 60 => owes 130: 40 current, 50 at 30, 40 at 90.
    await post(alice!.id, charge, "100.00", 100);
    await post(alice!.id, charge, "50.00", 45);
    await post(alice!.id, charge, "40.00", 0);
    await post(alice!.id, payment, "60.00", 0);
    // Bob: credit balance of 5.
    await post(bob!.id, credit, "7.50", 0);
    await post(bob!.id, debit, "2.50", 0);

    const response = await testApp.client(fixture.a.ownerToken).get(`/api/summary-data/client/${clientId}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      // Two customers of the fixture, Alice and Bob; archived ones do not count.
      totalCustomers: 4,
      totalTransactions: 6,
      arBalanceAsOfDate: today,
      arCurrentBalance: "35.00",
      arOverdue30: "50.00",
      arOverdue60: "0.00",
      arOverdue90: "40.00",
      mtdCharges: "40.00",
      mtdPayments: "60.00",
      mtdDebitAdj: "2.50",
      mtdCreditAdj: "7.50",
      mtdTotal: "-25.00",
      newBalance: "125.00",
      obexTotalBalance: "125.00",
      obexDateOfLastPayment: today,
    });
  });

  it("never serves figures older than the books: a write by the API or by another process shows at once", async () => {
    const clientId = fixture.b.clientId;
    const owner = testApp.client(fixture.b.ownerToken);
    const [charge] = await testApp.db
      .insert(codes)
      .values({ clientId, code: 10, description: "Service", codeType: "charge" })
      .returning();
    const [carol] = await testApp.db
      .insert(customers)
      .values({ clientId, customerNo: 301, customerName: "Carol" })
      .returning();
    const newBalance = async () =>
      ((await owner.get(`/api/summary-data/client/${clientId}`)).body as { newBalance: string }).newBalance;
    const first = await newBalance();
    expect(await newBalance()).toBe(first);
    const posted = await owner.post("/api/transactions/", {
      customer: carol!.id,
      code: charge!.id,
      rate: "11.00",
    });
    expect(posted.status).toBe(201);
    expect(await newBalance()).toBe(addAmounts(first, "11.00"));
    // Straight through the ledger writer, as a worker process would: no request of this server saw it.
    await postTransaction(
      testApp.db,
      { clientId },
      { customerId: carol!.id, codeId: charge!.id, description: "x", rate: "4.00" },
    );
    expect(await newBalance()).toBe(addAmounts(first, "15.00"));
  });

  it("answers another client's id with 404 and makes admins name a real client", async () => {
    expect(
      (await testApp.client(fixture.a.ownerToken).get(`/api/summary-data/client/${fixture.b.clientId}`))
        .status,
    ).toBe(404);
    expect(
      (await testApp.client(fixture.adminToken).get(`/api/summary-data/client/${fixture.b.clientId}`)).status,
    ).toBe(200);
    expect((await testApp.client(fixture.adminToken).get("/api/summary-data/client/987654")).status).toBe(
      404,
    );
    expect((await testApp.client(fixture.adminToken).get("/api/summary-data/client/abc")).status).toBe(400);
  });

  it("ages every demo customer, today and as of a past day, exactly as the domain's ageBalance does", async () => {
    await seedDemo(testApp.db, { createAdmin: false, customersPerClient: 30 });
    const demoClients = await testApp.db
      .select({ id: clients.id })
      .from(clients)
      .where(sql`client_no in (1001, 1002)`);
    let compared = 0;
    for (const asOf of [businessToday(), daysBefore(businessToday(), 40)]) {
      for (const { id: clientId } of demoClients) {
        const sqlAgeing = await ageCustomerBalances(testApp.db, clientId, asOf, undefined);
        // The ledger as of that day: entries dated after it are left out.
        const ledger = await queryRows(
          testApp.db,
          sql`select customer_id, service_date::text as service_date, ledger_amount::text as ledger_amount
              from transactions where client_id = ${clientId} and service_date <= ${asOf}::date order by id`,
          ledgerRowSchema,
        );
        let summed = emptyBuckets();
        for (const customer of sqlAgeing) {
          const entries = ledger.filter((row) => row.customer_id === customer.customerId);
          const balance = sumAmounts(entries.map((row) => row.ledger_amount));
          const debits = entries
            .filter((row) => !row.ledger_amount.startsWith("-") && row.ledger_amount !== "0.00")
            .map((row) => ({ date: row.service_date, amount: row.ledger_amount }));
          const expected = ageBalance(balance, debits, asOf);
          const { customerId: _customerId, balance: sqlBalance, ...buckets } = customer;
          expect(sumAmounts([sqlBalance])).toBe(balance);
          expect(buckets).toEqual(expected);
          summed = addBuckets(summed, expected);
          compared += 1;
        }
        // The whole client's ageing, summed in SQL, is the sum of the domain's customer by customer.
        const { balance: _total, ...clientBuckets } = await ageClientTotals(testApp.db, clientId, asOf);
        expect(clientBuckets).toEqual(summed);
      }
    }
    expect(compared).toBe(120);
  });
});
