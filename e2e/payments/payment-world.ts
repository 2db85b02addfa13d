import { DEMO_ACCOUNT, startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { apiLogIn, createClient, createCode, type ApiSession, type ClientFixture } from "../support/api.js";
import { logIn, readOutbox, uncaught } from "../support/auth.js";
import { closePage, collectPageErrors, launchBrowser, newPage } from "../support/browser.js";
import { startServer, type RunningServer } from "../support/server.js";

// Shared set-up of the payment browser tests: the BluePay sandbox over HTTP (TEST mode: an odd
// dollar amount approves, an even one declines), a server pointed at it (BLUEPAY_URL), and a
// provider admin who makes clients with and without a gateway key.

export const TEST_CARD = "4111111111111111";
/**
 * Other test cards (Luhn-valid): the sandbox refuses the same card and amount within its duplicate
 * window, as BluePay does, so customers stored one after another each get their own.
 */
export const OTHER_TEST_CARDS = [
  "5555555555554444",
  "6011111111111117",
  "4012888888881881",
  "5105105105105100",
] as const;
/** Two years ahead, so the card is valid on any date the tests run. */
export const EXP_YEAR = String((new Date().getFullYear() + 2) % 100).padStart(2, "0");

export type PaymentWorld = {
  server: RunningServer;
  sandbox: Sandbox;
  browser: Browser;
  admin: ApiSession;
  adminLogin: { email: string; password: string };
};

export type CustomerFixture = { id: number; customer_no: number; customer_name: string };

/** Registers the file's hooks: sandbox, server and browser once; a page per test via openPage. */
export function usePaymentWorld(email: string, password: string) {
  let world: PaymentWorld | undefined;
  const pages: { page: Page; errors: string[] }[] = [];

  beforeAll(async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      const server = await startServer({
        // Migrating a fresh database took past two minutes on a machine shared with other runs.
        startupTimeoutMs: 300_000,
        env: {
          BILLING_ADMIN_EMAIL: email,
          BILLING_ADMIN_PASSWORD: password,
          BLUEPAY_URL: sandbox.bp20postUrl,
        },
      });
      const admin = await apiLogIn(server, email, password);
      const browser = await launchBrowser();
      world = { server, sandbox, browser, admin, adminLogin: { email, password } };
    } catch (error) {
      await sandbox.close();
      throw error;
    }
  }, 320_000);

  afterAll(async () => {
    await world?.browser.close();
    await world?.server.stop();
    await world?.sandbox.close();
  });

  afterEach(async ({ task }) => {
    for (const { page, errors } of pages.splice(0)) {
      await closePage(page, task);
      expect(uncaught(errors)).toEqual([]);
    }
  });

  const current = () => {
    if (!world) throw new Error("setup failed");
    return world;
  };

  return {
    current,
    /** A fresh page; signed in as the admin unless `anonymous`. */
    async openPage(options: { anonymous?: boolean } = {}): Promise<Page> {
      const { browser, server, adminLogin } = current();
      const page = await newPage(browser, server.baseUrl);
      pages.push({ page, errors: collectPageErrors(page) });
      if (!options.anonymous) await logIn(page, adminLogin.email, adminLogin.password);
      return page;
    },
  };
}

export type PayClient = {
  client: ClientFixture;
  chargeCode: number;
  customer: (first: string, last: string, extra?: Record<string, unknown>) => Promise<CustomerFixture>;
  /** A charge dated `serviceDate` (default 2026-04-01, before the specs' runs close the books). */
  charge: (customer: CustomerFixture, rate: string, serviceDate?: string) => Promise<void>;
  balance: (customer: CustomerFixture) => Promise<string>;
};

/** A client billing on `cycle`, with the sandbox's demo key unless `withKey` is false. */
export async function makePayClient(
  admin: ApiSession,
  name: string,
  options: { withKey?: boolean; cycle?: number } = {},
): Promise<PayClient> {
  const client = await createClient(admin, name);
  const record = await admin.request<Record<string, unknown>>("GET", `clients/${client.id}/`);
  await admin.request("PUT", `clients/${client.id}/?client_id=${client.id}`, {
    ...record,
    address1: "1 Main St",
    city: "Austin",
    state: "TX",
    zip: "73301",
    normal_cycle: options.cycle ?? 12,
    ...(options.withKey === false
      ? {}
      : { bluepay_account_id: DEMO_ACCOUNT.accountId, bluepay_secret_key: DEMO_ACCOUNT.secretKey }),
  });
  const code = await createCode(admin, client.id, {
    code: 101,
    description: "Lawn care",
    code_type: "charge",
  });
  const customer = (first: string, last: string, extra: Record<string, unknown> = {}) =>
    admin.request<CustomerFixture>("POST", `customers/?client_id=${client.id}`, {
      first_name: first,
      last_name: last,
      address1: "12 Elm St",
      city: "Austin",
      state: "TX",
      zip: "73301",
      ...extra,
    });
  const charge = async (who: CustomerFixture, rate: string, serviceDate = "2026-04-01") => {
    await admin.request("POST", `transactions/?client_id=${client.id}`, {
      customer: who.id,
      code: code.id,
      description: "Lawn care",
      quantity: "1",
      rate,
      serviceDate,
      unitofmeasure: 1,
    });
  };
  const balance = async (who: CustomerFixture) =>
    (await admin.request<{ balance: string }>("GET", `customers/${who.id}/?client_id=${client.id}`)).balance;
  return { client, chargeCode: code.id, customer, charge, balance };
}

/** Stores a card for a customer as staff do (recordPayment: $0.00 AUTH, only the token kept). */
export async function storeCard(
  admin: ApiSession,
  clientId: number,
  customerId: number,
  card: string = TEST_CARD,
  autoPay = false,
): Promise<void> {
  const result = await admin.request<{ approved: boolean; message_response: string }>(
    "POST",
    "payments/make-payment/customer/",
    {
      client_id: clientId,
      customer_id: customerId,
      paymentMethod: "cc",
      ccNum: card,
      cvv: "123",
      expMonth: "12",
      expYear: EXP_YEAR,
      amount: "0.00",
      recordPayment: true,
      savePaymentInfo: true,
      isClientInitiated: true,
      autoPay,
    },
  );
  if (!result.approved) throw new Error(`Storing a card failed: ${result.message_response}`);
}

/**
 * Runs the client's cycle through production (statements emailed to the outbox) and returns the
 * pay link's path from the email sent to `email`.
 */
export async function payLinkFromStatementEmail(
  world: PaymentWorld,
  clientId: number,
  cycle: number,
  runDate: string,
  email: string,
  /** An autopay customer's statement email carries no pay link: then only the email is awaited. */
  options: { payLink: boolean } = { payLink: true },
): Promise<string> {
  const run = await world.admin.request<{ id: number }>("POST", `dailyproduction/cycle/${cycle}/`, {
    run_date: runDate,
    client_ids: [clientId],
  });
  await waitUntil(
    async () =>
      (await world.admin.request<{ status: string }>("GET", `productionruns/${run.id}/`)).status === "done",
    "the production run to finish",
  );
  let link: string | undefined;
  await waitUntil(async () => {
    const mail = (await readOutbox(world.server)).filter((candidate) => candidate.to === email).at(-1);
    // The pay link may sit in a quoted-printable part of the multipart mail: undo its soft breaks and "=3D".
    const body = (mail?.body ?? "").replace(/=\r?\n/g, "").replace(/=3D/gi, "=");
    if (mail && !options.payLink) return true;
    link = /\/payments\?statement_id=[0-9]+-[0-9a-f]+/.exec(body)?.[0];
    if (mail && !link) console.warn(`No pay link yet in the mail to ${email}:\n${body.slice(0, 2000)}`);
    return link !== undefined;
  }, `a statement email with a pay link to ${email}`);
  return link ?? "";
}

/** Polls outside a test (set-up hooks cannot use expect.poll). */
export async function waitUntil(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
