import { closedPeriodMessage } from "@cyclebill/domain";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clients, codes, customers, transactions } from "../../db/tables.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import {
  createTenantFixture,
  startTestApp,
  type ApiClient,
  type TenantFixture,
  type TestApp,
} from "../../test-support/test-app.js";
import { TEST_MAILING_ADDRESS } from "../../test-support/mailing-address.js";
import { postTransaction } from "../transactions/post-transaction.js";

// Issue 28 point 2, "no posting from any path": unarchiving a customer clears its (zero-sum) ledger,
// which would remove entries from a month already statemented. Refused while any lies in the closed
// period; fixed 2025 dates, so the test passes on any day.
const CLOSED_THROUGH = "2025-09-30";

let testApp: TestApp;
let fixture: TenantFixture;
let owner: ApiClient;
let clientId: number;
let chargeCode: number;
let paymentCode: number;

beforeAll(async () => {
  testApp = await startTestApp();
  fixture = await createTenantFixture(testApp);
  owner = testApp.client(fixture.a.ownerToken);
  clientId = fixture.a.clientId;
  const rows = await testApp.db
    .insert(codes)
    .values([
      { clientId, code: 100, description: "Service", codeType: "charge" },
      { clientId, code: 200, description: "Payment", codeType: "payment" },
    ])
    .returning();
  [chargeCode, paymentCode] = rows.map((row) => row.id) as [number, number];
});
afterAll(async () => {
  expect(await ledgerMismatches(testApp.db)).toEqual([]);
  await testApp?.close();
});

/** An archived customer whose charge and payment (zero balance) are dated `serviceDate`. */
async function archivedCustomer(customerNo: number, serviceDate: string): Promise<number> {
  const [row] = await testApp.db
    .insert(customers)
    .values({ clientId, customerNo, customerName: `Paid up ${customerNo}`, ...TEST_MAILING_ADDRESS })
    .returning({ id: customers.id });
  const id = row!.id;
  for (const codeId of [chargeCode, paymentCode])
    await postTransaction(
      testApp.db,
      { clientId },
      { customerId: id, codeId, description: "entry", rate: "40.00", serviceDate },
    );
  expect((await owner.delete(`/api/customers/${id}/`)).status).toBe(204);
  return id;
}

async function entriesOf(customerId: number): Promise<number> {
  const rows = await testApp.db
    .select({ id: transactions.id })
    .from(transactions)
    .where(and(eq(transactions.clientId, clientId), eq(transactions.customerId, customerId)));
  return rows.length;
}

describe("unarchiving a customer with entries in a closed period", () => {
  it("is refused with the closed-period message, and nothing is removed", async () => {
    const closedMonth = await archivedCustomer(801, "2025-09-10");
    const openMonth = await archivedCustomer(802, "2025-10-05");
    await testApp.db
      .update(clients)
      .set({ booksClosedThrough: CLOSED_THROUGH })
      .where(eq(clients.id, clientId));

    const refused = await owner.post(`/api/customers/${closedMonth}/undelete-now/`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ non_field_errors: [closedPeriodMessage(CLOSED_THROUGH)] });
    expect((refused.body as { non_field_errors: string[] }).non_field_errors[0]).toContain("09/30/2025");
    expect(await entriesOf(closedMonth)).toBe(2);
    const still = (await owner.get(`/api/customers/${closedMonth}/`)).body as Record<string, unknown>;
    expect(still).toMatchObject({ deleted: true, archive_state: "archived" });

    // Entries all in the open period: unarchived afresh, as before.
    const restored = await owner.post(`/api/customers/${openMonth}/undelete-now/`);
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body).toMatchObject({ deleted: false, archive_state: "active" });
    expect(await entriesOf(openMonth)).toBe(0);
  });
});
