import { startSandbox } from "@cyclebill/gateway-sandbox";
import type { Sandbox } from "@cyclebill/gateway-sandbox";
import { cardRunSchema, creditCardCustomerSchema, luhnValid, pageSchema } from "@cyclebill/domain";
import type { CardRun } from "@cyclebill/domain";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { clients, codes, customerPaymentMethods, customers } from "../db/tables.js";
import { pollUntil } from "./poll-until.js";
import type { ApiClient, TenantFixture, TestApp } from "./test-app.js";
import { startTenantApp } from "./tenant-app.js";
import { postEntries } from "../modules/ledger/post-entries.js";
import { sealSecret } from "../modules/secrets/secret-box.js";
import { buildRequest, callGateway } from "../modules/payments/bluepay-client.js";
import { TEST_MAILING_ADDRESS } from "./mailing-address.js";

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
  const body = `4${String(cardIndex).padStart(14, "0")}`;
  for (let check = 0; check < 10; check++) if (luhnValid(`${body}${check}`)) return `${body}${check}`;
  throw new Error("no check digit");
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
    await testApp.db.transaction((tx) =>
      postEntries(tx, { clientId: clientA }, [
        {
          customerId: row.id,
          codeId: serviceCode,
          codeType: "charge",
          description: "Service",
          rate: options.balance ?? "0",
          quantity: "1",
          serviceDate: options.serviceDate ?? "2025-02-20",
        },
      ]),
    );
  if (options.card) {
    // Stored as the staff form stores a card: a $0.00 AUTH whose TRANS_ID is the token.
    const answer = await callGateway(
      sandbox.bp20postUrl,
      buildRequest(ACCOUNT, {
        transType: "AUTH",
        mode: "TEST",
        amount: "0.00",
        account: { kind: "card", number: options.cardNumber ?? nextCard(), expire: "1299" },
        // A card shared with another customer is stored again on purpose.
        duplicateOverride: options.cardNumber !== undefined,
      }),
      { timeoutMs: 5_000 },
    );
    if (answer.status !== "approved") throw new Error(`AUTH refused: ${JSON.stringify(answer)}`);
    await testApp.db.insert(customerPaymentMethods).values({
      clientId: clientA,
      customerId: row.id,
      kind: "card",
      token: answer.transId,
      mask: answer.mask,
      cardType: answer.cardType,
      expiry: "1299",
    });
  }
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
        bluepayAccountId: ACCOUNT.accountId,
        bluepaySecretKeyEncrypted: sealSecret(testApp.config.secretsKey, ACCOUNT.secretKey),
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
