import { startSandbox, type Sandbox, type SandboxAccount } from "@cyclebill/gateway-sandbox";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach } from "vitest";
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
import { gatewayAccountFields } from "./stored-cards.js";

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

export type PaymentFixtureOptions = {
  logStream?: Writable;
  jobs?: TestAppOptions["jobs"];
  /** The gateway accounts of clients a and b (by default GATEWAY_ACCOUNT_A and _B). */
  accounts?: readonly [SandboxAccount, SandboxAccount];
  /** The sandbox's clock, when a test moves the app's. */
  sandboxNow?: () => Date;
  /** How long the server waits on the gateway (5 s by default). */
  gatewayTimeoutMs?: number;
  /** Proxies whose X-Forwarded-For names the payer (parallel payers from one test). */
  trustProxy?: string[];
  /** A stand-in in front of the sandbox (its bp20post address is the app's gateway). */
  standIn?: (sandboxUrl: string) => Promise<{ bp20postUrl: string; close: () => Promise<void> }>;
};

export async function startPaymentFixture(options: PaymentFixtureOptions = {}): Promise<PaymentFixture> {
  const [accountA, accountB] = options.accounts ?? [GATEWAY_ACCOUNT_A, GATEWAY_ACCOUNT_B];
  const sandbox = await startSandbox({
    accounts: [accountA, accountB],
    demoAccount: false,
    now: options.sandboxNow,
  });
  const standIn = options.standIn ? await options.standIn(sandbox.bp20postUrl) : null;
  const testApp = await startTestApp({
    bluepay: {
      url: standIn?.bp20postUrl ?? sandbox.bp20postUrl,
      mode: "TEST",
      timeoutMs: options.gatewayTimeoutMs ?? 5_000,
    },
    logStream: options.logStream,
    jobs: options.jobs,
    trustProxy: options.trustProxy,
  });
  const tenants = await createTenantFixture(testApp);
  for (const [tenant, account] of [
    [tenants.a, accountA],
    [tenants.b, accountB],
  ] as const)
    await testApp.db
      .update(clients)
      .set(gatewayAccountFields(testApp.config.secretsKey, account))
      .where(eq(clients.id, tenant.clientId));
  return {
    testApp,
    sandbox,
    tenants,
    close: async () => {
      await testApp.close();
      await standIn?.close();
      await sandbox.close();
    },
  };
}

/**
 * The payment fixture of a test file: started before its tests and closed after them; the object
 * answered is filled by the beforeAll. With `freshLimits`, every test starts with no rate limit spent.
 */
export function usePaymentFixture(
  options: PaymentFixtureOptions & { freshLimits?: boolean } = {},
): PaymentFixture {
  let started: PaymentFixture | undefined;
  const fixture = {} as PaymentFixture;
  beforeAll(async () => {
    started = await startPaymentFixture(options);
    Object.assign(fixture, started);
  });
  afterAll(async () => {
    await started?.close();
  });
  if (options.freshLimits)
    beforeEach(async () => {
      await forgetRateLimits(fixture.testApp);
    });
  return fixture;
}

/** POST /api/payments/make-payment/customer/ with an idempotency key, as `token` (anonymous without). */
export function makePayment(testApp: TestApp, body: unknown, key: string, token?: string) {
  return testApp
    .client(token)
    .request("POST", "/api/payments/make-payment/customer/", { body, headers: { "idempotency-key": key } });
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

/** A charge of `amount` to the Visa test card, as the payment forms post it. */
export function visaCharge(amount: string) {
  return { paymentMethod: "cc", ccNum: VISA, cvv: "123", expMonth: "12", expYear: "39", amount };
}

/** The staff form's storing of a card on file: a $0.00 AUTH of the MasterCard (or `changes`). */
export function storedCard(changes: Record<string, unknown> = {}) {
  return {
    paymentMethod: "cc",
    ccNum: MASTERCARD,
    cvv: "321",
    expMonth: "08",
    expYear: "38",
    amount: "0.00",
    recordPayment: true,
    ...changes,
  };
}

/** The public page's payment by card. */
export function cardPayment(token: string, amount: string, changes: Record<string, unknown> = {}) {
  return {
    statementId: token,
    ...visaCharge(amount),
    firstName: "Pat",
    lastName: "Payer",
    postalCode: "73301",
    ...changes,
  };
}

export async function forgetRateLimits(testApp: TestApp): Promise<void> {
  await testApp.db.delete(rateLimits);
}
