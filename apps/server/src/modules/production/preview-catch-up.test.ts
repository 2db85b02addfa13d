import { and, asc, eq, isNotNull } from "drizzle-orm";
import {
  productionClientPreviewSchema,
  productionCustomerPreviewSchema,
  productionCyclePreviewSchema,
} from "@cyclebill/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transactions } from "../../db/tables.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import { createFirstRunClient } from "../../test-support/first-run-client.js";
import {
  admin,
  fixture,
  runProductionCycle,
  testApp,
  useProductionApp,
} from "../../test-support/production-app.js";
import { pdfText } from "../../test-support/pdf-text.js";

// Issue 28 point 4: a first run bills one cycle unless the admin asks for a catch-up on the run's
// confirmation. The preview is the run: asked with catch_up, it shows what the catch-up run posts.
// Fixed 2025 dates (a run may not be dated past today), so the test passes on any day.
const CYCLE = 13;
const RUN_DATE = "2025-11-13";

let clientId: number;
let old: number;
let recent: number;

useProductionApp({ chunkSize: 10 });
beforeAll(async () => {
  const client = await createFirstRunClient(testApp.db, {
    clientNo: 7013,
    clientName: "Catch-up",
    cycle: CYCLE,
    started: "2025-08-20",
  });
  clientId = client.clientId;
  old = await client.add(1, "2024-01-01");
  recent = await client.add(2, "2025-10-15");
});

afterAll(async () => {
  expect(await ledgerMismatches(testApp.db)).toEqual([]);
});

async function get<T>(path: string, schema: { parse: (value: unknown) => T }, query: Record<string, string>) {
  const response = await admin.get(path, { run_date: RUN_DATE, ...query });
  expect(response.status, response.text).toBe(200);
  return schema.parse(response.body);
}

describe("the preview with the run's catch-up option", () => {
  it("shows what the catch-up run posts, and without it one cycle", async () => {
    const oneCycle = await get(`/api/dailyproduction/cycle/${CYCLE}/`, productionCyclePreviewSchema, {});
    const mine = (preview: typeof oneCycle) => preview.clients.find((row) => row.client_id === clientId)!;
    expect(mine(oneCycle)).toMatchObject({ period_start: "2025-10-14", period_end: RUN_DATE });
    expect(mine(oneCycle).figures.recurring).toEqual({ count: 2, total: "50.00" });

    const caughtUp = await get(`/api/dailyproduction/cycle/${CYCLE}/`, productionCyclePreviewSchema, {
      catch_up: "true",
    });
    expect(mine(caughtUp)).toMatchObject({ period_start: "2025-08-20", period_end: RUN_DATE });
    expect(mine(caughtUp).figures.recurring).toEqual({ count: 4, total: "100.00" });
    const clientPreview = await get(
      `/api/dailyproduction/client/${clientId}/`,
      productionClientPreviewSchema,
      {
        catch_up: "true",
      },
    );
    expect(clientPreview.figures).toEqual(mine(caughtUp).figures);
    const customerPreview = await get(
      `/api/dailyproduction/client/${clientId}/customers/${old}/`,
      productionCustomerPreviewSchema,
      { catch_up: "true" },
    );
    const previewLines = customerPreview.lines.map((line) => ({
      serviceDate: line.service_date,
      description: line.description,
      amount: line.amount,
    }));
    expect(previewLines.map((line) => line.serviceDate)).toEqual(["2025-09-01", "2025-10-01", "2025-11-01"]);
    const pdf = await fetch(
      `${testApp.baseUrl}/api/dailyproduction/client/${clientId}/customers/${old}/pdf/?run_date=${RUN_DATE}&catch_up=true`,
      { headers: { authorization: `Bearer ${fixture.adminToken}` } },
    );
    expect(pdf.status).toBe(200);
    const text = await pdfText(Buffer.from(await pdf.arrayBuffer()));
    for (const date of ["09/01/2025", "10/01/2025", "11/01/2025"]) expect(text).toContain(date);
    expect(text).toMatch(/NEW BALANCE[\s\S]*\$75\.00/);

    // The run with the same option posts exactly what the preview showed.
    const run = await runProductionCycle(admin, CYCLE, { run_date: RUN_DATE, catch_up: true });
    expect(run.status).toBe("done");
    expect(run.figures.recurring).toEqual(mine(caughtUp).figures.recurring);
    const posted = await testApp.db
      .select({
        customerId: transactions.customerId,
        serviceDate: transactions.serviceDate,
        description: transactions.description,
        amount: transactions.ledgerAmount,
      })
      .from(transactions)
      .where(and(eq(transactions.clientId, clientId), isNotNull(transactions.recurringChargeId)))
      .orderBy(asc(transactions.customerId), asc(transactions.serviceDate));
    expect(
      posted
        .filter((row) => row.customerId === old)
        .map((row) => ({ serviceDate: row.serviceDate, description: row.description, amount: row.amount })),
    ).toEqual(previewLines.map((line) => ({ ...line, amount: line.amount })));
    expect(posted.filter((row) => row.customerId === recent).map((row) => row.serviceDate)).toEqual([
      "2025-11-01",
    ]);
  });
});
