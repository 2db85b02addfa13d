import fc from "fast-check";
import {
  addDays,
  ageBalance,
  customerListRowSchema,
  sumAmounts,
  type AgeingBuckets,
} from "@cyclebill/domain";
import { describe, expect, it } from "vitest";
import { businessToday } from "../../clock.js";
import { postEntries, type NewLedgerEntry } from "../ledger/post-entries.js";
import { fixture, testApp, useTenantApp } from "../../test-support/tenant-app.js";
import { createCodes } from "../../test-support/test-codes.js";
import { insertCustomer } from "../../test-support/test-customers.js";

// Issue 38 point 3: the customer list ages in SQL (ageingBucketsSql) for speed; over random ledgers
// it answers what the domain's ageBalance answers from the entries themselves, today and as of a
// past day (entries dated after it left out). Dates are relative to the app's today: any day passes.

useTenantApp();

type Entry = { kind: "charge" | "payment"; cents: number; daysAgo: number };
const entry = fc.record({
  kind: fc.constantFrom<"charge" | "payment">("charge", "charge", "payment"),
  cents: fc.integer({ min: 1, max: 50_000 }),
  daysAgo: fc.integer({ min: -20, max: 200 }),
});
const ledgers = fc.array(fc.array(entry, { maxLength: 8 }), { minLength: 12, maxLength: 12 });

function expectedAgeing(
  entries: readonly Entry[],
  today: string,
  asOf: string,
): AgeingBuckets & { balance: string } {
  const dated = entries
    .map((e) => ({
      date: addDays(today, -e.daysAgo),
      amount: (((e.kind === "payment" ? -1 : 1) * e.cents) / 100).toFixed(2),
    }))
    .filter((e) => e.date <= asOf);
  const balance = sumAmounts(dated.map((e) => e.amount));
  return {
    balance,
    ...ageBalance(
      balance,
      dated.filter((e) => !e.amount.startsWith("-")),
      asOf,
    ),
  };
}

describe("the customer list's ageing", () => {
  it("equals the domain's ageBalance on random ledgers, today and as of a past day", async () => {
    const clientId = fixture.a.clientId;
    const codes = await createCodes(testApp.db, clientId, { charge: "charge", payment: "payment" });
    const today = businessToday();
    const [sample] = fc.sample(ledgers, { seed: 3803, numRuns: 1 });
    if (!sample) throw new Error("no sample");
    const ids: number[] = [];
    for (const [index, entries] of sample.entries()) {
      const customerId = await insertCustomer(testApp.db, {
        clientId,
        customerNo: 38_030 + index,
        customerName: `Ageing ${index}`,
        openDate: addDays(today, -400),
      });
      ids.push(customerId);
      const posts: NewLedgerEntry[] = entries.map((e) => ({
        customerId,
        codeId: codes[e.kind],
        codeType: e.kind,
        description: e.kind,
        rate: (e.cents / 100).toFixed(2),
        quantity: "1",
        serviceDate: addDays(today, -e.daysAgo),
      }));
      await testApp.db.transaction((tx) => postEntries(tx, { clientId }, posts));
    }
    const owner = testApp.client(fixture.a.ownerToken);
    let compared = 0;
    for (const asOf of [today, addDays(today, -45)]) {
      const response = await owner.get("/api/customers/", {
        as_of: asOf,
        limit: 100,
        ordering: "customer_no",
      });
      expect(response.status, response.text).toBe(200);
      const rows = (response.body as { results: unknown[] }).results.map((row) =>
        customerListRowSchema.parse(row),
      );
      for (const [index, customerId] of ids.entries()) {
        const row = rows.find((candidate) => candidate.id === customerId);
        const expected = expectedAgeing(sample[index] ?? [], today, asOf);
        expect(
          row && {
            balance: row.balance,
            current: row.current_balance,
            days30: row.overdue_30_days,
            days60: row.overdue_60_days,
            days90: row.overdue_90_days,
            over90: row.overdue_over_90_days,
          },
          `customer ${index} as of ${asOf}`,
        ).toEqual(expected);
        compared += 1;
      }
    }
    expect(compared).toBe(24);
  });
});
