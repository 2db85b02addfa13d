import { beforeAll, expect } from "vitest";
import { businessToday } from "../clock.js";
import { attachTransactions } from "../modules/invoices/create-invoice.js";
import { postTransaction } from "../modules/transactions/post-transaction.js";
import { fixture, testApp, useTenantApp } from "./tenant-app.js";
import { createCodes } from "./test-codes.js";
import { customerSeries, storedBalance, transactionRow } from "./test-customers.js";
import type { ApiClient } from "./test-app.js";

// What the invoice API tests (invoices-*.test.ts) share: a server with two clients, client A's
// charge, payment and info codes, client B's charge code, and helpers. The bindings are filled by
// useInvoiceWorld's beforeAll; each test file has its own module instance, so its own server.

export { fixture, testApp } from "./tenant-app.js";
export let owner: ApiClient;
export let staff: ApiClient;
export let otherOwner: ApiClient;
export let chargeCode: number;
export let paymentCode: number;
export let infoCode: number;
export let otherChargeCode: number;

export type Invoice = {
  id: number;
  invoice_num: number;
  invoice_status: "open" | "closed" | "processed";
  invoice_date: string;
  invoiceDate: string;
  customer: { id: number; customer_name: string; customer_no: number };
  customer_name: string;
  customer_no: number;
  client: number;
  statement: number | null;
  total: string;
  transaction_count: number;
  transactions?: { id: number; displayCode: number; amount: string; serviceDate: string; voided: boolean }[];
};
export type Page = { count: number; results: Invoice[] };

export const today = () => businessToday();
export const tenantA = () => ({ clientId: fixture.a.clientId });

/** Starts the server before the file's tests and checks the books after each. */
export function useInvoiceWorld(): void {
  useTenantApp({ checkBooks: "each" });
  beforeAll(async () => {
    owner = testApp.client(fixture.a.ownerToken);
    staff = testApp.client(fixture.a.staffToken);
    otherOwner = testApp.client(fixture.b.ownerToken);
    ({
      charge: chargeCode,
      payment: paymentCode,
      info: infoCode,
    } = await createCodes(testApp.db, fixture.a.clientId, {
      charge: "charge",
      payment: "payment",
      info: "info",
    }));
    ({ charge: otherChargeCode } = await createCodes(testApp.db, fixture.b.clientId, { charge: "charge" }));
  });
}

const nextCustomer = customerSeries(() => testApp.db, 500, "Invoice customer", {
  address1: "12 Elm St",
  city: "Austin",
  state: "TX",
  zip: "73301",
});
export const newCustomer = (clientId = fixture.a.clientId) => nextCustomer(clientId);

export function post(
  customerId: number,
  rate: string,
  options: { codeId?: number; serviceDate?: string } = {},
) {
  return postTransaction(testApp.db, tenantA(), {
    customerId,
    codeId: options.codeId ?? chargeCode,
    description: "Weekly service",
    rate,
    serviceDate: options.serviceDate ?? "2024-03-04",
  });
}

export async function add(body: Record<string, unknown>, api = owner): Promise<Invoice> {
  const response = await api.post("/api/invoices/", body);
  expect(response.status, response.text).toBe(201);
  return response.body as Invoice;
}

/** An invoice of a new customer holding the given charges. */
export async function filledInvoice(...rates: string[]): Promise<{ invoice: Invoice; entryIds: number[] }> {
  const customerId = await newCustomer();
  const invoice = await add({ customer: customerId, invoice_date: "2024-03-10" });
  const entryIds: number[] = [];
  for (const rate of rates) entryIds.push((await post(customerId, rate)).id);
  await attachTransactions(testApp.db, tenantA(), invoice.id, entryIds);
  return { invoice, entryIds };
}

export const entry = (id: number) => transactionRow(testApp.db, id);
export const balanceOf = (customerId: number) => storedBalance(testApp.db, customerId);
