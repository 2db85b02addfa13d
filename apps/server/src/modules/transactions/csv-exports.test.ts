import { strFromU8, unzipSync } from "fflate";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { clients, customers } from "../../db/tables.js";
import { TEST_MAILING_ADDRESS } from "../../test-support/mailing-address.js";
import {
  admin,
  fixture,
  runProductionCycle,
  testApp,
  useProductionApp,
} from "../../test-support/production-app.js";
import { createProductionClient } from "../../test-support/production-client.js";

// What the CSV exports say about what the screens show: no placeholder phones, and an entry billed
// on a statement is attached (to it), not new.

const CYCLE = 9;
const RUN_DATE = "2025-05-09";

useProductionApp({ chunkSize: 10 });

/** A client billed on the cycle since 2025-04-09, with `customers` customers. */
const exportClient = (clientNo: number, customers: number) =>
  createProductionClient(testApp.db, { clientNo, cycle: CYCLE, dateLastBilling: "2025-04-09", customers });

async function download(path: string): Promise<Response> {
  const response = await fetch(`${testApp.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${fixture.adminToken}` },
  });
  expect(response.status).toBe(200);
  return response;
}

function parseCsv(text: string): Record<string, string>[] {
  const [header = "", ...lines] = text.trim().split("\r\n");
  const columns = header.split(",");
  return lines.map((line) =>
    Object.fromEntries(line.split(",").map((cell, index) => [columns[index], cell])),
  );
}

describe("CSV exports", () => {
  it("exports the spec's no-phone 0000000000 as an empty phone, as the screens show it", async () => {
    const client = await exportClient(9301, 0);
    await testApp.db.insert(customers).values({
      clientId: client.clientId,
      customerNo: 1,
      customerName: "Pat Phoneless",
      phone1: "0000000000",
      phone2: "(555)-123-4567",
      ...TEST_MAILING_ADDRESS,
    });
    const zip = await download(`/api/csv/customers/${client.clientId}`);
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    const [row] = parseCsv(strFromU8(files["customers.csv"] ?? new Uint8Array()));
    expect(row).toMatchObject({
      customer_name: "Pat Phoneless",
      phone1: "",
      phone2: "(555)-123-4567",
      phone3: "",
    });
  });

  it("says an entry billed on a statement is attached, not new", async () => {
    const client = await exportClient(9302, 1);
    await testApp.db.update(clients).set({ normalCycle: 28 }).where(eq(clients.normalCycle, CYCLE));
    await testApp.db.update(clients).set({ normalCycle: CYCLE }).where(eq(clients.id, client.clientId));
    const run = await runProductionCycle(
      admin,
      CYCLE,
      { run_date: RUN_DATE, client_ids: [client.clientId] },
      120_000,
    );
    expect(run.status).toBe("done");
    const csv = await download(`/api/csv/customers/transactions/${client.clientId}/0/0/0/0/0/0/0`);
    const rows = parseCsv(await csv.text());
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((row) => row.transaction_status)).toEqual(rows.map(() => "attached"));
  }, 180_000);
});
