import { beforeAll, describe, expect, it } from "vitest";
import { customers } from "../../db/tables.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import { createInvoice } from "./create-invoice.js";
import {
  addRaceCustomers,
  charge,
  fixture,
  staff,
  testApp,
  useRaceApp,
} from "../../test-support/race-app.js";

// Invoices created beside postings on the same customer (issue 30, point 4). Numbering used to
// lock the client row FOR UPDATE, then the invoice's insert needed a key-share lock on the
// customer; a posting holds the customer and its customer_changes insert needs a key-share lock
// on the client row: PostgreSQL found the cycle and 7-9 of 30 creates answered 500. On PGlite
// the requests serialise; the race is PostgreSQL's.

const ROUNDS = 30;

let customer: number;

useRaceApp();
beforeAll(async () => {
  [customer] = (await addRaceCustomers([[802, "Busy Customer"]])) as [number];
});

function post() {
  return staff.post("/api/transactions/", {
    customer,
    code: charge,
    description: "Visit",
    rate: "5",
    force: true,
  });
}

describe("invoice numbering beside postings on one customer", () => {
  it("never answers 500 and numbers every invoice once", { timeout: 240_000 }, async () => {
    const answers = await Promise.all(
      Array.from({ length: ROUNDS }, () => [staff.post("/api/invoices/", { customer }), post()]).flat(),
    );
    const failures = answers.filter((answer) => answer.status >= 500).map((answer) => answer.text);
    expect(failures).toEqual([]);
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    const numbers = answers
      .filter((_, index) => index % 2 === 0)
      .map((answer) => (answer.body as { invoice_num: number }).invoice_num)
      .sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: ROUNDS }, (_, index) => index + 1));
    expect(await ledgerMismatches(testApp.db, { clientId: fixture.a.clientId })).toEqual([]);
  });

  it("makes invoices from entries beside postings without a 500", { timeout: 240_000 }, async () => {
    const entries: number[] = [];
    for (let index = 0; index < ROUNDS; index += 1) entries.push(((await post()).body as { id: number }).id);
    const answers = await Promise.all(
      entries.flatMap((entry) => [staff.post("/api/transactions/make_invoice/", { ids: [entry] }), post()]),
    );
    const failures = answers.filter((answer) => answer.status >= 500).map((answer) => answer.text);
    expect(failures).toEqual([]);
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    expect(await ledgerMismatches(testApp.db, { clientId: fixture.a.clientId })).toEqual([]);
  });

  // One PGlite connection runs one transaction at a time, so only PostgreSQL can show this.
  it.runIf(process.env.TEST_DB === "postgres")(
    "lets the client's postings through while an invoice is being created",
    { timeout: 60_000 },
    async () => {
      const [other] = await testApp.db
        .insert(customers)
        .values({ clientId: fixture.a.clientId, customerNo: 803, customerName: "Other Customer" })
        .returning({ id: customers.id });
      const answer = await testApp.db.transaction(async (tx) => {
        await createInvoice(
          tx,
          { clientId: fixture.a.clientId },
          { customerId: customer, invoiceDate: "2026-01-05" },
        );
        // The invoice's transaction is still open: a posting for another customer must not wait for it.
        return Promise.race([
          staff.post("/api/transactions/", {
            customer: other!.id,
            code: charge,
            description: "Visit",
            rate: "5",
            force: true,
          }),
          new Promise<{ status: number; text: string }>((resolve) =>
            setTimeout(() => resolve({ status: 0, text: "still waiting after 10 s" }), 10_000),
          ),
        ]);
      });
      expect(answer.status, answer.text).toBe(201);
    },
  );
});
