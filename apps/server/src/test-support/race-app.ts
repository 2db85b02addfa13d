import { afterAll, beforeAll } from "vitest";
import { customers } from "../db/tables.js";
import type { ApiClient, TenantFixture, TestApp } from "./test-app.js";
import { startTenantApp } from "./tenant-app.js";
import { createCodes } from "./test-codes.js";
import { MOWING } from "./transaction-world.js";

// What the race tests (requests that run at once on the same invoice or customers) start from: the
// server with the two-client tenant fixture, client A's staff and its charge code. The bindings
// are filled by useRaceApp's beforeAll; each test file has its own module instance, so its own server.

export let testApp: TestApp;
export let fixture: TenantFixture;
export let staff: ApiClient;
/** Client A's charge code (100, "Mowing"). */
export let charge: number;

/** Starts the server before the file's tests (call it before the file's own beforeAll); closes it after. */
export function useRaceApp(): void {
  beforeAll(async () => {
    ({ testApp, fixture } = await startTenantApp());
    staff = testApp.client(fixture.a.staffToken);
    ({ charge } = await createCodes(testApp.db, fixture.a.clientId, { charge: MOWING }));
  });
  afterAll(async () => testApp?.close());
}

/** Writes customers of client A (numbers and names; no address, the races need none); their ids. */
export async function addRaceCustomers(rows: readonly [number, string][]): Promise<number[]> {
  const made = await testApp.db
    .insert(customers)
    .values(
      rows.map(([customerNo, customerName]) => ({ clientId: fixture.a.clientId, customerNo, customerName })),
    )
    .returning({ id: customers.id });
  return made.map((row) => row.id);
}
