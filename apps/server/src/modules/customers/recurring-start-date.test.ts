import { and, asc, eq, isNotNull } from "drizzle-orm";
import { addDays } from "@cyclebill/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { businessToday } from "../../clock.js";
import { clients, codes, customers, transactions } from "../../db/tables.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import {
  createTenantFixture,
  startTestApp,
  type ApiClient,
  type TenantFixture,
  type TestApp,
} from "../../test-support/test-app.js";
import { runProductionCycle } from "../../test-support/production-app.js";
import { TEST_MAILING_ADDRESS } from "../../test-support/mailing-address.js";

// Issue 28 point 4: a recurring charge bills from the later of its own creation, or the start date
// the user gives it, and the customer's open date. The start date is part of the API: a real date,
// not before the customer's open date. Fixed 2025 dates for the run (a run may not be dated past
// today), so the test passes on any day.
const CYCLE = 14;

let testApp: TestApp;
let fixture: TenantFixture;
let owner: ApiClient;
let clientId: number;
let chargeCode: number;
let customerId: number;

type Charge = { id: number; start_date: string | null; auto_amount: string };

beforeAll(async () => {
  testApp = await startTestApp({ jobs: { chunkSize: 10 } });
  fixture = await createTenantFixture(testApp);
  owner = testApp.client(fixture.a.ownerToken);
  clientId = fixture.a.clientId;
  await testApp.db
    .update(clients)
    .set({ normalCycle: CYCLE, dateLastBilling: "2025-05-14" })
    .where(eq(clients.id, clientId));
  const [code] = await testApp.db
    .insert(codes)
    .values({ clientId, code: 100, description: "Service", codeType: "charge" })
    .returning({ id: codes.id });
  chargeCode = code!.id;
  const [customer] = await testApp.db
    .insert(customers)
    .values({
      clientId,
      customerNo: 501,
      customerName: "Opened March",
      ...TEST_MAILING_ADDRESS,
      openDate: "2025-03-01",
    })
    .returning({ id: customers.id });
  customerId = customer!.id;
});

afterAll(async () => {
  expect(await ledgerMismatches(testApp.db)).toEqual([]);
  await testApp?.close();
});

const charge = (fields: Record<string, unknown>) => ({
  customer: customerId,
  auto_code: chargeCode,
  description: "Monthly",
  rate: "20",
  start_month: 1,
  end_month: 12,
  ...fields,
});

describe("a recurring charge's start date", () => {
  it("is a real date, not before the customer's open date; kept when an update leaves it out", async () => {
    const unreal = await owner.post("/api/autoamounts/", charge({ start_date: "2025-02-30" }));
    expect(unreal.status).toBe(400);
    expect(Object.keys(unreal.body as object)).toEqual(["start_date"]);
    const early = await owner.post("/api/autoamounts/", charge({ start_date: "2025-02-15" }));
    expect(early).toMatchObject({
      status: 400,
      body: { start_date: ["The start date can't be before the customer's open date (03/01/2025)."] },
    });

    const created = await owner.post("/api/autoamounts/", charge({ start_date: "2025-06-01" }));
    expect(created.status, created.text).toBe(201);
    const id = (created.body as Charge).id;
    expect(created.body).toMatchObject({ start_date: "2025-06-01", auto_amount: "20.00" });
    const listed = (await owner.get("/api/autoamounts/", { customer__id: customerId })).body as {
      results: Charge[];
    };
    expect(listed.results.find((row) => row.id === id)?.start_date).toBe("2025-06-01");

    const kept = await owner.put(`/api/autoamounts/${id}/`, charge({ rate: "21" }));
    expect(kept.body).toMatchObject({ start_date: "2025-06-01", auto_amount: "21.00" });
    const cleared = await owner.put(`/api/autoamounts/${id}/`, charge({ rate: "20", start_date: null }));
    expect(cleared.body).toMatchObject({ start_date: null });
    const refused = await owner.put(`/api/autoamounts/${id}/`, charge({ start_date: "2025-01-01" }));
    expect(refused.status).toBe(400);
    expect((await owner.get(`/api/autoamounts/${id}/`)).body).toMatchObject({ start_date: null });
    expect((await owner.delete(`/api/autoamounts/${id}/`)).status).toBe(204);

    const without = await owner.post("/api/autoamounts/", charge({}));
    expect(without.body).toMatchObject({ start_date: null });
    expect((await owner.delete(`/api/autoamounts/${(without.body as Charge).id}/`)).status).toBe(204);
  });

  it("is taken by full-create, not before the new customer's open date (today)", async () => {
    const today = businessToday();
    const customer = {
      ...TEST_MAILING_ADDRESS,
      address1: TEST_MAILING_ADDRESS.address1,
      first_name: "Starts",
      last_name: "Later",
    };
    const early = await owner.post("/api/customers/full-create/", {
      customer,
      recurring_charges: [
        { auto_code: chargeCode, rate: "10", start_month: 1, end_month: 12, start_date: addDays(today, -1) },
      ],
    });
    expect(early.status).toBe(400);
    expect(JSON.stringify(early.body)).toContain("The start date can't be before the customer's open date");
    const later = addDays(today, 40);
    const made = await owner.post("/api/customers/full-create/", {
      customer,
      recurring_charges: [
        { auto_code: chargeCode, rate: "10", start_month: 1, end_month: 12, start_date: later },
      ],
    });
    expect(made.status, made.text).toBe(201);
    const listed = (await owner.get("/api/autoamounts/", { customer__id: (made.body as { id: number }).id }))
      .body as { results: Charge[] };
    expect(listed.results.map((row) => row.start_date)).toEqual([later]);
    // Not billed by this test's run (cycle 14 is billed on 2025-06-14, before it existed).
  });

  it("is honoured by the run: a charge entered today bills from the earlier start date it was given, a later one waits", async () => {
    const june = await owner.post(
      "/api/autoamounts/",
      charge({ description: "From June", start_date: "2025-06-01" }),
    );
    const july = await owner.post(
      "/api/autoamounts/",
      charge({ description: "From July", start_date: "2025-07-01" }),
    );
    expect([june.status, july.status]).toEqual([201, 201]);
    const admin = testApp.client(fixture.adminToken);
    const run = await runProductionCycle(admin, CYCLE, { run_date: "2025-06-14", client_ids: [clientId] });
    expect(run.status).toBe("done");
    const posted = await testApp.db
      .select({ description: transactions.description, serviceDate: transactions.serviceDate })
      .from(transactions)
      .where(
        and(
          eq(transactions.clientId, clientId),
          eq(transactions.customerId, customerId),
          isNotNull(transactions.recurringChargeId),
        ),
      )
      .orderBy(asc(transactions.id));
    expect(posted).toEqual([{ description: "From June", serviceDate: "2025-06-01" }]);
  });
});
