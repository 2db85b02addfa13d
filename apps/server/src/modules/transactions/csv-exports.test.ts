import { productionRunSchema } from "@cyclebill/domain";
import { strFromU8, unzipSync } from "fflate";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clients, customers } from "../../db/tables.js";
import { TEST_MAILING_ADDRESS } from "../../test-support/mailing-address.js";
import { pollUntil } from "../../test-support/poll-until.js";
import { createProductionClient } from "../../test-support/production-client.js";
import { createTenantFixture, startTestApp, type TestApp } from "../../test-support/test-app.js";

// What the CSV exports say about what the screens show: no placeholder phones, and an entry billed
// on a statement is attached (to it), not new.

const CYCLE = 9;
const RUN_DATE = "2025-05-09";

let testApp: TestApp;
let adminToken: string;

beforeAll(async () => {
  testApp = await startTestApp({ jobs: { chunkSize: 10 } });
  adminToken = (await createTenantFixture(testApp)).adminToken;
});
afterAll(async () => testApp?.close());

async function download(path: string): Promise<Response> {
  const response = await fetch(`${testApp.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${adminToken}` },
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
    const client = await createProductionClient(testApp.db, {
      clientNo: 9301,
      cycle: CYCLE,
      dateLastBilling: "2025-04-09",
      customers: 0,
    });
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
    const client = await createProductionClient(testApp.db, {
      clientNo: 9302,
      cycle: CYCLE,
      dateLastBilling: "2025-04-09",
      customers: 1,
    });
    await testApp.db.update(clients).set({ normalCycle: 28 }).where(eq(clients.normalCycle, CYCLE));
    await testApp.db.update(clients).set({ normalCycle: CYCLE }).where(eq(clients.id, client.clientId));
    const started = await testApp
      .client(adminToken)
      .post(`/api/dailyproduction/cycle/${CYCLE}/`, { run_date: RUN_DATE, client_ids: [client.clientId] });
    expect(started.status, started.text).toBe(202);
    const id = productionRunSchema.parse(started.body).id;
    const run = await pollUntil(
      async () =>
        productionRunSchema.parse((await testApp.client(adminToken).get(`/api/productionruns/${id}/`)).body),
      (current) => current.status === "done" || current.status === "failed",
      120_000,
    );
    expect(run.status).toBe("done");
    const csv = await download(`/api/csv/customers/transactions/${client.clientId}/0/0/0/0/0/0/0`);
    const rows = parseCsv(await csv.text());
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((row) => row.transaction_status)).toEqual(rows.map(() => "attached"));
  }, 180_000);
});
