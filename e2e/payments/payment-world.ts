import { DEMO_ACCOUNT, startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import {
  createCode,
  createCustomer,
  createCycleClient,
  postEntry,
  runCycle,
  waitUntil,
  type ApiSession,
  type ClientFixture,
  type CustomerFixture,
} from "../support/api.js";
import { logIn, readOutbox, uncaught } from "../support/auth.js";
import { closePage, collectPageErrors } from "../support/browser.js";
import { useBrowserWorld } from "../support/browser-world.js";
import type { RunningServer } from "../support/server.js";

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
  "4000056655665556",
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

/** Registers the file's hooks: sandbox, server and browser once; a page per test via openPage. */
export function usePaymentWorld(email: string, password: string) {
  let sandbox: Sandbox | undefined;
  const pages: { page: Page; errors: string[] }[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  // Registered before the server's hooks, so it closes after them.
  afterAll(async () => {
    await sandbox?.close();
  });

  const base = useBrowserWorld({
    admin: { email, password },
    api: email,
    env: () => ({ BLUEPAY_URL: sandbox?.bp20postUrl ?? "" }),
    // Migrating a fresh database took past two minutes on a machine shared with other runs.
    startupTimeoutMs: 300_000,
    pagePerTest: false,
  });

  afterEach(async ({ task }) => {
    for (const { page, errors } of pages.splice(0)) {
      await closePage(page, task);
      expect(uncaught(errors)).toEqual([]);
    }
  });

  const current = (): PaymentWorld => {
    const { server, browser, api } = base.current();
    if (!sandbox) throw new Error("setup failed");
    return { server, sandbox, browser, admin: api, adminLogin: { email, password } };
  };

  return {
    current,
    /** A fresh page; signed in as the admin unless `anonymous`. */
    async openPage(options: { anonymous?: boolean } = {}): Promise<Page> {
      const page = await base.current().openPage();
      pages.push({ page, errors: collectPageErrors(page) });
      if (!options.anonymous) await logIn(page, email, password);
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
  const client = await createCycleClient(
    admin,
    name,
    options.cycle ?? 12,
    options.withKey === false
      ? {}
      : { bluepay_account_id: DEMO_ACCOUNT.accountId, bluepay_secret_key: DEMO_ACCOUNT.secretKey },
  );
  const code = await createCode(admin, client.id, {
    code: 101,
    description: "Lawn care",
    code_type: "charge",
  });
  const customer = (first: string, last: string, extra: Record<string, unknown> = {}) =>
    createCustomer(admin, client.id, { first_name: first, last_name: last, address1: "12 Elm St", ...extra });
  const charge = async (who: CustomerFixture, rate: string, serviceDate = "2026-04-01") => {
    await postEntry(admin, client.id, {
      customer: who.id,
      code: code.id,
      description: "Lawn care",
      rate,
      serviceDate,
    });
  };
  const balance = async (who: CustomerFixture) =>
    (await admin.request<{ balance: string }>("GET", `customers/${who.id}/?client_id=${client.id}`)).balance;
  return { client, chargeCode: code.id, customer, charge, balance };
}

/**
 * A client on `cycle` whose customer (statements emailed to `email`) owes `amount`, and the pay link
 * of the statement email a production run on `runDate` sends.
 */
export async function statementToPay(
  world: PaymentWorld,
  statement: {
    clientName: string;
    cycle: number;
    runDate: string;
    customer: [first: string, last: string];
    email: string;
    amount: string;
  },
): Promise<{ payClient: PayClient; customer: CustomerFixture; payLink: string }> {
  const { clientName, cycle, runDate, email, amount } = statement;
  const payClient = await makePayClient(world.admin, clientName, { cycle });
  const [first, last] = statement.customer;
  const customer = await payClient.customer(first, last, { email, pull_flag: "E" });
  await payClient.charge(customer, amount);
  const payLink = await payLinkFromStatementEmail(world, payClient.client.id, cycle, runDate, email);
  return { payClient, customer, payLink };
}

/** Fills a payment form's card fields: `card`, December of EXP_YEAR, CVV 123. */
export async function fillCardFields(page: Page, card: string = TEST_CARD): Promise<void> {
  await page.getByLabel(/^Card number/).fill(card);
  await page.getByLabel(/^Exp\. month/).fill("12");
  await page.getByLabel(/^Exp\. year/).fill(EXP_YEAR);
  await page.getByLabel(/^CVV/).fill("123");
}

/** On the public pay page: picks Card and fills its fields. */
export async function fillCard(page: Page, card: string = TEST_CARD): Promise<void> {
  await page
    .locator("label")
    .filter({ hasText: /^Card$/ })
    .click();
  await fillCardFields(page, card);
}

/** A one-off card payment staff take for a customer (nothing stored); the gateway's answer. */
export function payByCard(
  admin: ApiSession,
  clientId: number,
  customerId: number,
  amount: string,
): Promise<{ approved: boolean; message_response: string }> {
  return admin.request<{ approved: boolean; message_response: string }>(
    "POST",
    "payments/make-payment/customer/",
    {
      client_id: clientId,
      customer_id: customerId,
      paymentMethod: "cc",
      ccNum: TEST_CARD,
      cvv: "123",
      expMonth: "12",
      expYear: EXP_YEAR,
      amount,
      recordPayment: false,
      savePaymentInfo: false,
      isClientInitiated: true,
    },
  );
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
  await runCycle(world.admin, cycle, { run_date: runDate, client_ids: [clientId] });
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
