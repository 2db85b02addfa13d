import { startSandbox } from "@cyclebill/gateway-sandbox";
import type { Sandbox } from "@cyclebill/gateway-sandbox";
import { cardRunSchema, creditCardCustomerSchema, pageSchema } from "@cyclebill/domain";
import type { CardRun } from "@cyclebill/domain";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { clients, codes, customers } from "../db/tables.js";
import { pollUntil } from "./poll-until.js";
import type { ApiClient, TenantFixture, TestApp } from "./test-app.js";
import { startTenantApp } from "./tenant-app.js";
import { postInOneTransaction, serviceCharge } from "./ledger-rows.js";
import { TEST_MAILING_ADDRESS } from "./mailing-address.js";
import { luhnCard, storeCardOnFile, gatewayAccountFields } from "./stored-cards.js";

// What the card-run API tests (card-runs*.test.ts) share: the gateway sandbox, a server whose job
// engine works in this process, client A on the sandbox's account with four customers, and helpers.
// The bindings are filled by useCardRunWorld's hooks; each test file has its own module instance.

export const ACCOUNT = { accountId: "100000001616", secretKey: "CARDRUNSAPITESTSECRETKEY00000001" };
export const CYCLE = 9;
export const RUN_DATE = "2025-03-09";

export let sandbox: Sandbox;
export let testApp: TestApp;
export let fixture: TenantFixture;
export let staffA: ApiClient;
export let ownerB: ApiClient;
export let admin: ApiClient;
export let clientA: number;
export let serviceCode: number;
export const ids: Record<string, number> = {};
export let cardIndex = 0;

/** A distinct Luhn-valid card per customer: the sandbox scrubs duplicates by card and amount. */
export function nextCard(): string {
  cardIndex += 1;
  return luhnCard("4", cardIndex);
}

/** A customer of client A, with a balance (charged through the ledger writer) and maybe a stored card. */
export async function addCustomer(
  no: number,
  name: string,
  options: {
    balance?: string;
    card?: boolean;
    autopay?: boolean;
    serviceDate?: string;
    cardNumber?: string;
  } = {},
): Promise<number> {
  const [row] = await testApp.db
    .insert(customers)
    .values({
      clientId: clientA,
      customerNo: no,
      customerName: `${name} customer`,
      firstName: name,
      lastName: `Payer ${no}`,
      autopayFlag: options.autopay ?? false,
      ...TEST_MAILING_ADDRESS,
    })
    .returning({ id: customers.id });
  if (!row) throw new Error("customer not created");
  ids[name] = row.id;
  if (options.balance)
    await postInOneTransaction(testApp.db, clientA, [
      serviceCharge(row.id, serviceCode, options.balance, options.serviceDate ?? "2025-02-20"),
    ]);
  if (options.card)
    await storeCardOnFile(
      testApp.db,
      { url: sandbox.bp20postUrl, account: ACCOUNT },
      { clientId: clientA, customerId: row.id },
      options.cardNumber ?? nextCard(),
      // A card shared with another customer is stored again on purpose.
      { duplicateOverride: options.cardNumber !== undefined },
    );
  return row.id;
}

export async function waitForCardRun(client: ApiClient, id: number, query: Record<string, number> = {}) {
  return pollUntil(
    async () => {
      const response = await client.get(`/api/card-runs/${id}/`, query);
      expect(response.status).toBe(200);
      return cardRunSchema.parse(response.body);
    },
    (run: CardRun) => run.job.status === "succeeded" || run.job.status === "failed",
    60_000,
  );
}

export const listSchema = pageSchema(creditCardCustomerSchema);

/** Starts the sandbox and the server before the file's tests; closes both after. */
export function useCardRunWorld(): void {
  beforeAll(async () => {
    sandbox = await startSandbox({ accounts: [ACCOUNT], demoAccount: false });
    ({ testApp, fixture } = await startTenantApp({
      jobs: { chunkSize: 4 },
      bluepay: { url: sandbox.bp20postUrl, timeoutMs: 5_000 },
    }));
    clientA = fixture.a.clientId;
    staffA = testApp.client(fixture.a.staffToken);
    ownerB = testApp.client(fixture.b.ownerToken);
    admin = testApp.client(fixture.adminToken);
    await testApp.db
      .update(clients)
      .set({
        ...gatewayAccountFields(testApp.config.secretsKey, ACCOUNT),
        normalCycle: CYCLE,
        dateLastBilling: "2025-02-09",
      })
      .where(eq(clients.id, clientA));
    const [code] = await testApp.db
      .insert(codes)
      .values({ clientId: clientA, code: 100, description: "Service", codeType: "charge" })
      .returning({ id: codes.id });
    serviceCode = code?.id ?? 0;
    await addCustomer(31, "Odd", { balance: "21.00", card: true });
    await addCustomer(32, "Even", { balance: "22.50", card: true });
    await addCustomer(33, "Settled", { card: true });
    await addCustomer(34, "Cardless", { balance: "15.00" });
  });
  afterAll(async () => {
    await testApp?.close();
    await sandbox?.close();
  });
}
