import { startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import { and, eq } from "drizzle-orm";
import { businessToday } from "../clock.js";
import type { Writable } from "node:stream";
import { clients, codes, customers, rateLimits, statements } from "../db/tables.js";
import {
  createTenantFixture,
  startTestApp,
  type TenantFixture,
  type TestApp,
  type TestAppOptions,
} from "./test-app.js";
import { postEntries } from "../modules/ledger/post-entries.js";
import { sealSecret } from "../modules/secrets/secret-box.js";

// A running server pointed at a gateway sandbox over HTTP, two clients (a with a gateway key, b
// too, each its own account), and statements with pay codes: what the payment API tests share.

export const GATEWAY_ACCOUNT_A = { accountId: "100000000101", secretKey: "PAYMENTSTESTSECRETKEYA0123456789" };
export const GATEWAY_ACCOUNT_B = { accountId: "100000000102", secretKey: "PAYMENTSTESTSECRETKEYB0123456789" };
/** Test cards (Luhn-valid): approved or declined by the amount in the sandbox's TEST mode. */
export const VISA = "4111111111111111";
export const MASTERCARD = "5555555555554444";

export type PaymentFixture = {
  testApp: TestApp;
  sandbox: Sandbox;
  tenants: TenantFixture;
  close: () => Promise<void>;
};

export async function startPaymentFixture(
  options: { logStream?: Writable; jobs?: TestAppOptions["jobs"] } = {},
): Promise<PaymentFixture> {
  const sandbox = await startSandbox({
    accounts: [GATEWAY_ACCOUNT_A, GATEWAY_ACCOUNT_B],
    demoAccount: false,
  });
  const testApp = await startTestApp({
    bluepay: { url: sandbox.bp20postUrl, mode: "TEST", timeoutMs: 5_000 },
    logStream: options.logStream,
    jobs: options.jobs,
  });
  const tenants = await createTenantFixture(testApp);
  for (const [tenant, account] of [
    [tenants.a, GATEWAY_ACCOUNT_A],
    [tenants.b, GATEWAY_ACCOUNT_B],
  ] as const)
    await testApp.db
      .update(clients)
      .set({
        bluepayAccountId: account.accountId,
        bluepaySecretKeyEncrypted: sealSecret(testApp.config.secretsKey, account.secretKey),
      })
      .where(eq(clients.id, tenant.clientId));
  return {
    testApp,
    sandbox,
    tenants,
    close: async () => {
      await testApp.close();
      await sandbox.close();
    },
  };
}

let statementNo = 0;

/**
 * A customer owing `balance` (a charge through the ledger writer) with a statement for it; its pay
 * token as the statement's link carries it.
 */
export async function customerWithStatement(
  testApp: Pick<TestApp, "db">,
  clientId: number,
  balance: string,
): Promise<{ customerId: number; token: string; statementId: number }> {
  statementNo += 1;
  const [customer] = await testApp.db
    .insert(customers)
    .values({
      clientId,
      customerNo: 5000 + statementNo,
      customerName: `Pat Payer ${statementNo}`,
      openDate: businessToday(),
      firstName: "Pat",
      lastName: `Payer${statementNo}`,
      address1: "9 Elm St",
      city: "Austin",
      state: "TX",
      zip: "73301",
    })
    .returning({ id: customers.id });
  if (!customer) throw new Error("customer not made");
  await testApp.db
    .insert(codes)
    .values({ clientId, code: 100, codeName: "Service", description: "Service", codeType: "charge" })
    .onConflictDoNothing();
  const [code] = await testApp.db
    .select({ id: codes.id })
    .from(codes)
    .where(and(eq(codes.clientId, clientId), eq(codes.code, 100)));
  await testApp.db.transaction(async (tx) =>
    postEntries(tx, { clientId }, [
      {
        customerId: customer.id,
        codeId: code?.id ?? 0,
        codeType: "charge",
        description: "Service",
        rate: balance,
        quantity: "1",
        serviceDate: "2026-01-15",
      },
    ]),
  );
  const [statement] = await testApp.db
    .insert(statements)
    .values({
      clientId,
      statementNum: 700 + statementNo,
      customerId: customer.id,
      statementDate: "2026-01-31",
      newBalance: balance,
      currentBalance: balance,
    })
    .returning({ id: statements.id, payCode: statements.payCode });
  if (!statement) throw new Error("statement not made");
  return { customerId: customer.id, token: `${clientId}-${statement.payCode}`, statementId: statement.id };
}

/** The public page's payment by card. */
export function cardPayment(token: string, amount: string, changes: Record<string, unknown> = {}) {
  return {
    statementId: token,
    paymentMethod: "cc",
    ccNum: VISA,
    cvv: "123",
    expMonth: "12",
    expYear: "39",
    amount,
    firstName: "Pat",
    lastName: "Payer",
    postalCode: "73301",
    ...changes,
  };
}

export async function forgetRateLimits(testApp: TestApp): Promise<void> {
  await testApp.db.delete(rateLimits);
}
