import { beforeAll, describe, expect, it } from "vitest";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import {
  addRaceCustomers,
  charge,
  fixture,
  staff,
  testApp,
  useRaceApp,
} from "../../test-support/race-app.js";

// Closing an invoice while one of its entries is edited or voided, at the same time. The edit and
// void paths used to read the invoice's status without locking it, so an edit or a void could land
// on an invoice that had just been closed. Whatever order the two commit in, a closed invoice must
// stay as it was when the close answered. On PGlite the requests serialise; the races are
// PostgreSQL's, where every pair really runs at once.

const PAIRS = process.env.TEST_DB === "postgres" ? 150 : 20;

let customer: number;

type Invoice = { id: number; invoice_status: string; total: string };

useRaceApp();
beforeAll(async () => {
  [customer] = (await addRaceCustomers([[801, "Racing Customer"]])) as [number];
});

/** An open invoice holding one 10.00 entry. */
async function openInvoiceWithOneEntry(): Promise<{ invoice: number; entry: number }> {
  const posted = await staff.post("/api/transactions/", {
    customer,
    code: charge,
    description: "Race",
    rate: "10",
    force: true,
  });
  expect(posted.status, posted.text).toBe(201);
  const entry = (posted.body as { id: number }).id;
  const made = await staff.post("/api/transactions/make_invoice/", { ids: [entry] });
  expect(made.status, made.text).toBe(201);
  return { invoice: (made.body as { id: number }).id, entry };
}

async function race(change: (entry: number) => Promise<{ status: number; text: string }>) {
  const setups = [];
  for (let index = 0; index < PAIRS; index += 1) setups.push(await openInvoiceWithOneEntry());
  const outcomes = await Promise.all(
    setups.map(async ({ invoice, entry }) => {
      const [closed, changed] = await Promise.all([
        staff.post(`/api/invoices/${invoice}/close/`),
        change(entry),
      ]);
      return { invoice, closed, changed };
    }),
  );
  const serverErrors = outcomes
    .flatMap(({ closed, changed }) => [closed, changed])
    .filter((answer) => answer.status >= 500)
    .map((answer) => answer.text);
  expect(serverErrors).toEqual([]);
  const changedAfterClose = [];
  for (const { invoice, closed } of outcomes) {
    expect(closed.status, closed.text).toBe(200);
    const now = (await staff.get(`/api/invoices/${invoice}/`)).body as Invoice;
    const atClose = closed.body as Invoice;
    if (now.invoice_status !== "closed" || now.total !== atClose.total)
      changedAfterClose.push({ atClose, now });
  }
  expect(changedAfterClose).toEqual([]);
  expect(await ledgerMismatches(testApp.db, { clientId: fixture.a.clientId })).toEqual([]);
  return outcomes.map(({ changed }) => changed.status);
}

describe("closing an invoice while its entry changes", () => {
  it("never lets an edit land on a closed invoice", { timeout: 180_000 }, async () => {
    const statuses = await race((entry) =>
      staff.put(`/api/transactions/${entry}/`, { customer, code: charge, description: "Race", rate: "99" }),
    );
    // Each edit either went first (200) or found the invoice closed (400); never anything else.
    expect(statuses.filter((status) => status !== 200 && status !== 400)).toEqual([]);
  });

  it("never lets a void land on a closed invoice", { timeout: 180_000 }, async () => {
    const statuses = await race((entry) => staff.post(`/api/transactions/${entry}/void_transaction/`));
    expect(statuses.filter((status) => status !== 201 && status !== 400)).toEqual([]);
  });
});
