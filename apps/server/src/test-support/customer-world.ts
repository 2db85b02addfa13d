import { beforeAll, expect } from "vitest";
import { postTransaction } from "../modules/transactions/post-transaction.js";
import { AUSTIN_ADDRESS } from "./mailing-address.js";
import { fixture, testApp, useTenantApp } from "./tenant-app.js";
import { createCodes } from "./test-codes.js";
import type { ApiClient } from "./test-app.js";

// What the customer API tests (customers-*.test.ts) share: a server with two clients, client A's
// charge, payment and credit codes, and helpers. The bindings are filled by useCustomerWorld's
// beforeAll; each test file has its own module instance, so its own server.

export { fixture, testApp } from "./tenant-app.js";
export let owner: ApiClient;
export let chargeCode: number;
export let paymentCode: number;
export let creditCode: number;

export type Customer = Record<string, unknown> & {
  id: number;
  customer_no: number;
  customer_name: string;
  archive_state: string;
};
export type Page = { count: number; results: Customer[] };

/** Starts the server before the file's tests; the books balance at the end. */
export function useCustomerWorld(): void {
  useTenantApp({ checkBooks: "end" });
  beforeAll(async () => {
    owner = testApp.client(fixture.a.ownerToken);
    ({
      charge: chargeCode,
      payment: paymentCode,
      credit: creditCode,
    } = await createCodes(testApp.db, fixture.a.clientId, {
      charge: "charge",
      payment: "payment",
      credit: "credit",
    }));
  });
}

export const ADDRESS = AUSTIN_ADDRESS;

/** Adds a customer over the API (with a complete address unless the body gives one). */
export async function add<Row = Customer>(body: Record<string, unknown>, api = owner): Promise<Row> {
  const response = await api.post("/api/customers/", { ...ADDRESS, ...body });
  expect(response.status, response.text).toBe(201);
  return response.body as Row;
}

export function post(customerId: number, codeId: number, rate: string, serviceDate?: string) {
  return postTransaction(
    testApp.db,
    { clientId: fixture.a.clientId },
    { customerId, codeId, description: "entry", rate, serviceDate },
  );
}
