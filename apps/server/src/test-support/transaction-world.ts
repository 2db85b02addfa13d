import { beforeAll, expect } from "vitest";
import { fixture, testApp, useTenantApp } from "./tenant-app.js";
import { createCodes, TEST_CODES } from "./test-codes.js";
import { insertCustomers } from "./test-customers.js";
import type { ApiClient } from "./test-app.js";

// What the transaction API tests (transactions-*.test.ts) share: a server with two clients, client
// A's codes (a system code among them) and six customers, and helpers. The bindings are filled by
// useTransactionWorld's beforeAll; each test file has its own module instance, so its own server.

export { fixture, testApp } from "./tenant-app.js";
export let staff: ApiClient;
export let code: { charge: number; payment: number; credit: number; system: number };
export let customerIds: number[];

export type Entry = Record<string, unknown> & {
  id: number;
  editable: boolean;
  voidable: boolean;
  reversible: boolean;
  void_deletable: boolean;
};

/** The charge code of the transaction tests. */
export const MOWING = { ...TEST_CODES.charge, description: "Mowing" };

/** Starts the server before the file's tests and checks the books after each. */
export function useTransactionWorld(): void {
  // The books balance after every scenario.
  useTenantApp({ checkBooks: "each" });
  beforeAll(async () => {
    staff = testApp.client(fixture.a.staffToken);
    code = await createCodes(testApp.db, fixture.a.clientId, {
      charge: MOWING,
      payment: "payment",
      credit: "credit",
      system: "lateFee",
    });
    customerIds = await insertCustomers(testApp.db, {
      clientId: fixture.a.clientId,
      count: 6,
      firstNo: 300,
      name: "Ledger",
    });
  });
}

export async function balanceOf(customerId: number): Promise<string> {
  const customer = (await staff.get(`/api/customers/${customerId}/`)).body as { balance: string };
  return customer.balance;
}

export async function enter(body: Record<string, unknown>): Promise<Entry> {
  const response = await staff.post("/api/transactions/", body);
  expect(response.status, response.text).toBe(201);
  return response.body as Entry;
}
