import type { PaymentLink } from "@cyclebill/domain";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { currentClock, setClock } from "./clock.js";
import { codes, customers } from "./db/tables.js";
import { delayFromNow } from "./jobs/index.js";
import { customerWithStatement } from "./test-support/payment-fixture.js";
import { TEST_MAILING_ADDRESS } from "./test-support/mailing-address.js";
import {
  createTenantFixture,
  startTestApp,
  type ApiClient,
  type TenantFixture,
  type TestApp,
} from "./test-support/test-app.js";

// The app's clock a year ahead of the database's, as `faketime -f '+365d'` leaves a PostgreSQL
// server that runs outside the faked process: every time the app compares with comes from the one
// clock (clock.ts), never from the database's now(), so this passes on any date and either database.

const YEAR_MS = 365 * 86_400_000;
const HOUR_MS = 3_600_000;
const realClock = currentClock();

let testApp: TestApp;
let fixture: TenantFixture;
let staff: ApiClient;
let chargeCode: number;
let ahead: number;

const shiftTo = (ms: number) => setClock({ now: () => new Date(ms) });

beforeAll(async () => {
  testApp = await startTestApp();
  fixture = await createTenantFixture(testApp);
  staff = testApp.client(fixture.a.staffToken);
  const [code] = await testApp.db
    .insert(codes)
    .values({ clientId: fixture.a.clientId, code: 100, description: "Service", codeType: "charge" })
    .returning({ id: codes.id });
  chargeCode = code!.id;
});
beforeEach(() => {
  ahead = realClock.now().getTime() + YEAR_MS;
  shiftTo(ahead);
});
afterEach(() => setClock(realClock));
afterAll(async () => testApp?.close());

async function newCustomer(lastName: string): Promise<number> {
  const made = await staff.post("/api/customers/", {
    first_name: "Tess",
    last_name: lastName,
    ...TEST_MAILING_ADDRESS,
  });
  expect(made.status, made.text).toBe(201);
  return (made.body as { id: number }).id;
}

describe("the app's clock a year ahead of the database's", () => {
  it("refuses a duplicate entry within 24 hours of the app's clock and takes it after", async () => {
    const customer = await newCustomer("Duplicate");
    const body = { customer, code: chargeCode, rate: "10", serviceDate: "2026-11-01" };
    expect((await staff.post("/api/transactions/", body)).status).toBe(201);
    expect(await staff.post("/api/transactions/", body)).toMatchObject({
      status: 400,
      body: { non_field_errors: ["Duplicate Transaction Detected"] },
    });
    shiftTo(ahead + 25 * HOUR_MS);
    expect((await staff.post("/api/transactions/", body)).status).toBe(201);
  });

  it("stamps an archived customer and a stored amount with the app's time", async () => {
    const customer = await newCustomer("Archived");
    const stored = await staff.post("/api/storedamounts/", {
      customer,
      storedCode: chargeCode,
      rate: "2",
      quantity: "1",
    });
    expect(stored.status, stored.text).toBe(201);
    expect((stored.body as { created: string }).created).toBe(new Date(ahead).toISOString());
    expect((await staff.delete(`/api/customers/${customer}/`)).status).toBe(204);
    const [row] = await testApp.db
      .select({ deletedAt: customers.deletedAt })
      .from(customers)
      .where(and(eq(customers.clientId, fixture.a.clientId), eq(customers.id, customer)));
    expect(row?.deletedAt?.getTime()).toBe(ahead);
  });

  it("keeps a payment link 7 days by the app's clock", async () => {
    const { customerId } = await customerWithStatement(testApp, fixture.a.clientId, "20.00");
    const issued = await staff.post(`/api/customers/${customerId}/payment-link/`);
    expect(issued.status).toBe(201);
    const link = issued.body as PaymentLink;
    expect(Date.parse(link.expires_at)).toBe(ahead + 7 * 24 * HOUR_MS);
    const paymentLink = new URL(link.url).searchParams.get("link") ?? "";
    const info = () => testApp.client().post("/api/payments/get-link-info/", { paymentLink });
    shiftTo(ahead + 6 * 24 * HOUR_MS);
    expect((await info()).status).toBe(200);
    shiftTo(ahead + 8 * 24 * HOUR_MS);
    expect((await info()).status).toBe(404);
  });

  it("gives pg-boss a job's start as a wait from the app's now, which the database adds to its own", () => {
    expect(delayFromNow(new Date(ahead + 90_500), new Date(ahead))).toBe("91");
    expect(delayFromNow(new Date(ahead - 5_000), new Date(ahead))).toBe("0");
  });
});
