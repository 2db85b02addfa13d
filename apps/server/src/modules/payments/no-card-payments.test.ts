import { paymentInfoSchema, publicPaymentInfoSchema, statementPayToken } from "@cyclebill/domain";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { clients, statements } from "../../db/tables.js";
import { postInOneTransaction, serviceCharge } from "../../test-support/ledger-rows.js";
import { pdfText } from "../../test-support/pdf-text.js";
import { pollUntil } from "../../test-support/poll-until.js";
import {
  admin,
  clientId,
  fixture,
  runProductionCycle,
  testApp,
  useProductionApp,
} from "../../test-support/production-app.js";
import { gatewayAccountFields } from "../../test-support/stored-cards.js";
import { createCodes } from "../../test-support/test-codes.js";
import { insertCustomer } from "../../test-support/test-customers.js";
import { PROVIDER_MAIL_ADDRESS } from "../mail/mail-sender.js";

// Issue 41 point 2: a client with no gateway key takes no card payments. Its statements (PDF and
// email) carry no pay link, and payment info says so (takes_card_payments) before anyone types a
// card; a key stored turns the link on. One rule decides it (takesCardPayments). And the build's
// "emails from the client": the statement email's sender name and Reply-To are the client's, the
// provider's address stays the From address and the envelope sender.

const CYCLE = 13;
const RUN_DATE = "2025-07-13";
const EMAIL = "eve-no-card@example.com";
const CLIENT_EMAIL = "office@evergreen-lawns.example";
const CLIENT_NAME = "Evergreen Lawns & Co";

let customerId = 0;
let statement: typeof statements.$inferSelect;

useProductionApp({
  chunkSize: 3,
  client: {
    normalCycle: CYCLE,
    dateLastBilling: "2025-06-13",
    clientName: CLIENT_NAME,
    email: CLIENT_EMAIL,
    bluepayAccountId: "",
    bluepaySecretKeyEncrypted: null,
  },
});

beforeAll(async () => {
  customerId = await insertCustomer(testApp.db, {
    clientId,
    customerNo: 41,
    customerName: "Eve Email",
    lastName: "Email",
    address1: "41 Elm St",
    pullFlag: "E",
    email: EMAIL,
  });
  const { service } = await createCodes(testApp.db, clientId, {
    service: { code: 501, codeType: "charge", description: "Service" },
  });
  await postInOneTransaction(testApp.db, clientId, [
    serviceCharge(customerId, service, "42.50", "2025-07-02"),
  ]);
  const run = await runProductionCycle(admin, CYCLE, { run_date: RUN_DATE, client_ids: [clientId] });
  expect(run.status).toBe("done");
  const [row] = await testApp.db
    .select()
    .from(statements)
    .where(and(eq(statements.clientId, clientId), eq(statements.customerId, customerId)));
  if (!row) throw new Error("no statement");
  statement = row;
}, 120_000);

async function statementPdfText(): Promise<string> {
  const response = await fetch(
    `${testApp.baseUrl}/api/statements/${statement.id}/pdf/?client_id=${clientId}`,
    { headers: { authorization: `Bearer ${fixture.adminToken}` } },
  );
  expect(response.status).toBe(200);
  return pdfText(new Uint8Array(await response.arrayBuffer()));
}

const token = () => statementPayToken(clientId, statement.payCode);

async function publicInfo() {
  const response = await testApp.client().post("/api/payments/get-payment-info/", { statementId: token() });
  expect(response.status).toBe(200);
  return publicPaymentInfoSchema.parse(response.body);
}

async function staffInfo() {
  const response = await admin.get(`/api/customers/${customerId}/get-payment-info/`, { client_id: clientId });
  expect(response.status).toBe(200);
  return paymentInfoSchema.parse(response.body);
}

describe("a client with no gateway key", () => {
  it("emails the statement without a pay link, from the client's name with its Reply-To", async () => {
    const [mail] = await pollUntil(
      () => Promise.resolve(testApp.mail.messages.filter((message) => message.to === EMAIL)),
      (found) => found.length > 0,
      60_000,
    );
    if (!mail) throw new Error("no statement email");
    expect(mail.text).toContain("Amount due: $42.50");
    expect(mail.text).not.toMatch(/pay online|statement_id=/i);
    expect(mail.html).not.toMatch(/Pay your statement|statement_id=/);
    const attached = await pdfText(mail.attachments[0]?.content ?? Buffer.alloc(0));
    expect(attached).toContain("Eve Email");
    expect(attached).not.toMatch(/pay online|statement_id=/i);
    expect(mail.from).toEqual({ name: CLIENT_NAME, address: PROVIDER_MAIL_ADDRESS });
    expect(mail.replyTo).toBe(CLIENT_EMAIL);
    expect(mail.envelopeFrom).toBe(PROVIDER_MAIL_ADDRESS);
  });

  it("prints no pay link, says so in payment info, and refuses a card before the gateway", async () => {
    expect(await statementPdfText()).not.toMatch(/pay online|statement_id=/i);
    expect(await publicInfo()).toMatchObject({ takes_card_payments: false, client_name: CLIENT_NAME });
    expect(await staffInfo()).toMatchObject({ takes_card_payments: false });
    const paid = await testApp.client().request("POST", "/api/payments/make-payment/customer/", {
      body: {
        statementId: token(),
        paymentMethod: "cc",
        ccNum: "4111111111111111",
        cvv: "123",
        expMonth: "12",
        expYear: "39",
        amount: "42.50",
      },
      headers: { "idempotency-key": "no-card-1" },
    });
    // Refused before any gateway is asked (this server has no gateway address either).
    expect(paid.status).toBe(400);
    expect(paid.body).toMatchObject({ non_field_errors: [expect.any(String)] });
  });

  it("an account id without a secret key (or a key without an account id) still takes none", async () => {
    await testApp.db
      .update(clients)
      .set({ bluepayAccountId: "100000000141" })
      .where(eq(clients.id, clientId));
    expect(await publicInfo()).toMatchObject({ takes_card_payments: false });
    expect(await statementPdfText()).not.toMatch(/pay online/i);
    await testApp.db
      .update(clients)
      .set({
        ...gatewayAccountFields(testApp.config.secretsKey, {
          accountId: "",
          secretKey: "K".repeat(32),
          hashType: "HMAC_SHA512",
        }),
      })
      .where(eq(clients.id, clientId));
    expect(await publicInfo()).toMatchObject({ takes_card_payments: false });
    expect(await statementPdfText()).not.toMatch(/pay online/i);
  });

  it("with a gateway key stored, the statement prints its pay link and payment info says cards are taken", async () => {
    await testApp.db
      .update(clients)
      .set(
        gatewayAccountFields(testApp.config.secretsKey, {
          accountId: "100000000141",
          secretKey: "K".repeat(32),
          hashType: "HMAC_SHA512",
        }),
      )
      .where(eq(clients.id, clientId));
    const text = await statementPdfText();
    expect(text).toContain("Or pay online");
    expect(text.replace(/\s+/g, "")).toContain(`statement_id=${token()}`);
    expect(await publicInfo()).toMatchObject({ takes_card_payments: true });
    expect(await staffInfo()).toMatchObject({ takes_card_payments: true });
  });
});
