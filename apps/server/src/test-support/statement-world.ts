import { eq } from "drizzle-orm";
import { beforeAll } from "vitest";
import { customers } from "../db/tables.js";
import { createStatement } from "../modules/statements/create-statement.js";
import { postOfKind } from "./ledger-rows.js";
import { fixture, testApp, useTenantApp } from "./tenant-app.js";
import { createCodes } from "./test-codes.js";
import { customerSeries, transactionRow } from "./test-customers.js";
import type { ApiClient } from "./test-app.js";

// What the statement API tests (statements-*.test.ts) share: a server with two clients, client A's
// codes of every type, and helpers. The bindings are filled by useStatementWorld's beforeAll; each
// test file has its own module instance, so its own server.

export { fixture, testApp } from "./tenant-app.js";
export let owner: ApiClient;
export let otherOwner: ApiClient;
export const code = { charge: 0, payment: 0, credit: 0, debit: 0, info: 0 };

export type Statement = {
  id: number;
  statement_num: number;
  invoice_num: number;
  statement_date: string;
  invoice_date: string;
  customer: number;
  customer_id: number;
  customer_name: string;
  invoice_status: string;
  new_balance: string;
  previous_balance: string;
  transactions?: { id: number }[];
  invoices?: { id: number }[];
};
export type Page = { count: number; results: Statement[] };

export const tenantA = () => ({ clientId: fixture.a.clientId });

/** Starts the server before the file's tests and checks the books after each. */
export function useStatementWorld(): void {
  useTenantApp({ checkBooks: "each" });
  beforeAll(async () => {
    owner = testApp.client(fixture.a.ownerToken);
    otherOwner = testApp.client(fixture.b.ownerToken);
    Object.assign(
      code,
      await createCodes(testApp.db, fixture.a.clientId, {
        charge: "charge",
        payment: "payment",
        credit: "credit",
        debit: "debit",
        info: { code: 5, description: "Note", codeType: "info" },
      }),
    );
  });
}

const nextCustomer = customerSeries(() => testApp.db, 700, "Statement customer");
export const newCustomer = (clientId = fixture.a.clientId) => nextCustomer(clientId);

export function post(customerId: number, kind: keyof typeof code, rate: string, serviceDate: string) {
  return postOfKind(testApp.db, fixture.a.clientId, code, { customerId, kind, rate, serviceDate });
}

export async function customerRow(id: number) {
  const [row] = await testApp.db.select().from(customers).where(eq(customers.id, id));
  if (!row) throw new Error("customer missing");
  return row;
}

export const entry = (id: number) => transactionRow(testApp.db, id);

/** A customer with one statement, and the statement. */
export async function statementFor(date = "2024-03-31", rate = "10.00") {
  const customerId = await newCustomer();
  await post(customerId, "charge", rate, date);
  const statement = await createStatement(testApp.db, tenantA(), { customerId, statementDate: date });
  return { customerId, statement };
}
