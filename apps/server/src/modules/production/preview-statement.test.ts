import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../db/query-rows.js";
import { clients, codes, customers, recurringCharges } from "../../db/tables.js";
import { postEntries } from "../ledger/post-entries.js";
import type { TenantFixture, TestApp } from "../../test-support/test-app.js";
import { startTenantApp } from "../../test-support/tenant-app.js";
import { TEST_MAILING_ADDRESS } from "../../test-support/mailing-address.js";

// The preview statement PDF of one customer: drawn from the preview's plan, nothing written.
const CYCLE = 11;
const RUN_DATE = "2025-06-11";

let testApp: TestApp;
let fixture: TenantFixture;
let clientId: number;
let customerId: number;

beforeAll(async () => {
  ({ testApp, fixture } = await startTenantApp());
  clientId = fixture.a.clientId;
  await testApp.db
    .update(clients)
    .set({
      normalCycle: CYCLE,
      dateLastBilling: "2025-05-11",
      financeFlag: "1",
      thirtyDayRateOrPercent: "rate",
      dayCharge30Day: "5.00",
    })
    .where(eq(clients.id, clientId));
  const [code] = await testApp.db
    .insert(codes)
    .values({ clientId, code: 100, description: "Service", codeType: "charge" })
    .returning({ id: codes.id });
  const [customer] = await testApp.db
    .insert(customers)
    .values({
      clientId,
      customerNo: 700,
      customerName: "Preview Customer",
      ...TEST_MAILING_ADDRESS,
      address1: "1 Elm St",
    })
    .returning({ id: customers.id });
  customerId = customer?.id ?? 0;
  await testApp.db.insert(recurringCharges).values({
    clientId,
    customerId,
    codeId: code?.id ?? 0,
    description: "Monthly service",
    rate: "25.00000",
    quantity: "1",
    amount: "25.00",
    startMonth: 1,
    endMonth: 12,
  });
  await testApp.db.transaction((tx) =>
    postEntries(tx, { clientId }, [
      {
        customerId,
        codeId: code?.id ?? 0,
        codeType: "charge",
        description: "Service",
        rate: "100.00",
        quantity: "1",
        serviceDate: "2025-04-20",
      },
    ]),
  );
});

afterAll(async () => {
  await testApp?.close();
});

const written = async () =>
  (
    await queryRows<{ entries: number; statements: number }>(
      testApp.db,
      sql`select (select count(*)::int from transactions where client_id = ${clientId}) as entries,
                 (select count(*)::int from statements where client_id = ${clientId}) as statements`,
    )
  )[0];

describe("preview statement PDF", () => {
  it("draws the statement a run would produce, writes nothing, admins only", async () => {
    const before = await written();
    const path = `/api/dailyproduction/client/${clientId}/customers/${customerId}/pdf/?run_date=${RUN_DATE}`;
    const response = await fetch(`${testApp.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${fixture.adminToken}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toContain(
      `filename="Statement preview 700 ${RUN_DATE}.pdf"`,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(await written()).toEqual(before);

    for (const token of [fixture.a.ownerToken, fixture.a.staffToken])
      expect((await testApp.client(token).get(path)).status).toBe(403);
    const otherClient = `/api/dailyproduction/client/${fixture.b.clientId}/customers/${customerId}/pdf/`;
    expect((await testApp.client(fixture.adminToken).get(otherClient, { run_date: RUN_DATE })).status).toBe(
      404,
    );
  });
});
