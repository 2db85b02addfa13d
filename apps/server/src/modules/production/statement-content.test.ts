import { execFileSync } from "node:child_process";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { invoices, statements, transactions } from "../../db/tables.js";
import { statementMismatches } from "../ledger/statement-mismatches.js";
import {
  admin,
  clientId,
  fixture,
  runProductionCycle,
  testApp,
  useProductionApp,
} from "../../test-support/production-app.js";
import type { ApiClient } from "../../test-support/test-app.js";
import { createCodes } from "../../test-support/test-codes.js";
import { insertCustomer } from "../../test-support/test-customers.js";

// Issue 38 points 1 and 5: one rule for what a statement carries, followed by the run, the preview
// statement and the doctor alike. A statement bills the entries dated up to its date (nothing
// later, whatever invoice they are on) and carries the closed invoices it bills in full. Dates are
// fixed in 2025, so the test passes on any day.
const CYCLE = 7;
const RUN_DATE = "2025-06-07";

let staff: ApiClient;
let customerId: number;
let chargeCode: number;
const invoice: Record<"open" | "closedLater" | "closedWhole", number> = {
  open: 0,
  closedLater: 0,
  closedWhole: 0,
};

useProductionApp({ chunkSize: 10, client: { normalCycle: CYCLE, dateLastBilling: "2025-05-07" } });

async function post(rate: string, serviceDate: string, invoiceId?: number): Promise<void> {
  const posted = await staff.post("/api/transactions/", {
    customer: customerId,
    code: chargeCode,
    rate,
    serviceDate,
  });
  expect(posted.status, posted.text).toBe(201);
  if (invoiceId !== undefined)
    await testApp.db
      .update(transactions)
      .set({ invoiceId, transactionStatus: "attached" })
      .where(eq(transactions.id, (posted.body as { id: number }).id));
}

beforeAll(async () => {
  staff = testApp.client(fixture.a.staffToken);
  ({ charge: chargeCode } = await createCodes(testApp.db, clientId, { charge: "charge" }));
  customerId = await insertCustomer(testApp.db, {
    clientId,
    customerNo: 3801,
    customerName: "Statement Content",
    lastName: "Content",
    address1: "1 Elm St",
    openDate: "2025-01-01",
  });
  const made = await testApp.db
    .insert(invoices)
    .values([
      { clientId, invoiceNum: 1, customerId, invoiceDate: "2025-06-01" },
      { clientId, invoiceNum: 2, customerId, invoiceDate: "2025-06-02", invoiceStatus: "closed" },
      { clientId, invoiceNum: 3, customerId, invoiceDate: "2025-06-03", invoiceStatus: "closed" },
    ])
    .returning({ id: invoices.id });
  const [open, closedLater, closedWhole] = made.map((row) => row.id);
  if (open === undefined || closedLater === undefined || closedWhole === undefined)
    throw new Error("no invoices");
  Object.assign(invoice, { open, closedLater, closedWhole });
  await post("100.00", "2025-05-20");
  // An open invoice with one entry in the period and one dated after the run.
  await post("10.00", "2025-06-01", invoice.open);
  await post("40.00", "2025-06-20", invoice.open);
  // A closed invoice with an entry after the run: it waits for the statement that bills all of it.
  await post("20.00", "2025-06-02", invoice.closedLater);
  await post("30.00", "2025-06-15", invoice.closedLater);
  // A closed invoice wholly in the period: carried.
  await post("15.00", "2025-06-03", invoice.closedWhole);
});

function pdfText(bytes: Buffer): string {
  return execFileSync("pdftotext", ["-layout", "-", "-"], { input: bytes }).toString("utf8");
}

describe("what a statement carries (one rule: run, preview, doctor)", () => {
  it("the preview draws the figures the run then writes, and the doctor finds the statement right", async () => {
    const previewPath = `/api/dailyproduction/client/${clientId}/customers/${customerId}/pdf/?run_date=${RUN_DATE}`;
    const preview = await fetch(`${testApp.baseUrl}${previewPath}`, {
      headers: { authorization: `Bearer ${fixture.adminToken}` },
    });
    expect(preview.status).toBe(200);
    const previewText = pdfText(Buffer.from(await preview.arrayBuffer()));

    const run = await runProductionCycle(admin, CYCLE, { run_date: RUN_DATE });
    expect(run.status).toBe("done");
    const [statement] = await testApp.db
      .select()
      .from(statements)
      .where(and(eq(statements.clientId, clientId), eq(statements.customerId, customerId)));
    expect(statement).toBeDefined();
    // Billed: 100 + 10 + 20 + 15, everything dated up to the run date; the 40.00 and 30.00 wait.
    expect(statement!.newBalance).toBe("145.00");
    expect(statement!.charges).toBe("145.00");
    const billed = await testApp.db
      .select({ rate: transactions.rate, statementId: transactions.statementId })
      .from(transactions)
      .where(and(eq(transactions.clientId, clientId), eq(transactions.customerId, customerId)));
    expect(billed.filter((row) => row.statementId === statement!.id)).toHaveLength(4);
    expect(billed.filter((row) => row.statementId === null)).toHaveLength(2);

    // The preview printed the same boxes the run wrote.
    for (const figure of ["145.00"]) expect(previewText).toContain(figure);
    expect(previewText).not.toContain("185.00"); // 145 + the open invoice's later 40.00
    expect(previewText).not.toContain("175.00"); // 145 + the closed invoice's later 30.00

    const status = Object.fromEntries(
      (
        await testApp.db
          .select({ id: invoices.id, status: invoices.invoiceStatus, statementId: invoices.statementId })
          .from(invoices)
          .where(eq(invoices.clientId, clientId))
      ).map((row) => [row.id, row]),
    );
    expect(status[invoice.open]?.status).toBe("open");
    expect(status[invoice.closedLater]?.status).toBe("closed");
    expect(status[invoice.closedWhole]).toMatchObject({ status: "processed", statementId: statement!.id });

    expect(await statementMismatches(testApp.db, { clientId })).toEqual([]);
  });
});
