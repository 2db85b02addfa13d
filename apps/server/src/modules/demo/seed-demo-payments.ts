import { and, asc, eq, gt, inArray } from "drizzle-orm";
import { luhnValid } from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { clients, customers } from "../../db/tables.js";
import { sealSecret } from "../secrets/secret-box.js";
import type { PaymentGateway } from "../payments/payment-gateway.js";
import { sendPaymentAttempt, type SendPaymentInput } from "../payments/send-attempt.js";

// Demo payments: the demo clients use the gateway sandbox's documented demo account (npm start
// runs the sandbox and points BLUEPAY_URL at it), some customers have a card on file with autopay,
// and a few paid by card or ACH (one was declined, and one autopay charge), all through
// sendPaymentAttempt and the gateway.

/** The sandbox's DEMO_ACCOUNT (apps/gateway-sandbox): documented, neither secret nor real; HMAC_SHA512. */
export const DEMO_GATEWAY_ACCOUNT = {
  accountId: "100200300400",
  secretKey: "CYCLEBILLSANDBOXDEMOSECRETKEY001",
  hashType: "HMAC_SHA512",
} as const;

/** The sandbox's LEGACY_DEMO_ACCOUNT, set to MD5 seals: the demo's legacy-account client. */
export const LEGACY_DEMO_GATEWAY_ACCOUNT = {
  accountId: "100200300401",
  secretKey: "CYCLEBILLSANDBOXLEGACYMD5KEY0001",
  hashType: "MD5",
} as const;

/**
 * Gives the demo clients the sandbox's demo account (HMAC_SHA512, the clients' default), and the
 * last of several the legacy MD5 account with gateway_hash_type MD5; keys sealed as any client's are.
 */
export async function pointDemoClientsAtSandbox(
  db: Database,
  secretsKey: string,
  clientIds: readonly number[],
): Promise<void> {
  if (clientIds.length === 0) return;
  const legacy = clientIds.length > 1 ? clientIds.at(-1) : undefined;
  await db
    .update(clients)
    .set({
      bluepayAccountId: DEMO_GATEWAY_ACCOUNT.accountId,
      bluepaySecretKeyEncrypted: sealSecret(secretsKey, DEMO_GATEWAY_ACCOUNT.secretKey),
    })
    .where(inArray(clients.id, [...clientIds]));
  if (legacy !== undefined)
    await db
      .update(clients)
      .set({
        bluepayAccountId: LEGACY_DEMO_GATEWAY_ACCOUNT.accountId,
        bluepaySecretKeyEncrypted: sealSecret(secretsKey, LEGACY_DEMO_GATEWAY_ACCOUNT.secretKey),
        gatewayHashType: LEGACY_DEMO_GATEWAY_ACCOUNT.hashType,
      })
      .where(eq(clients.id, legacy));
}

/** A distinct Luhn-valid test card on the 411111 test range (the sandbox scrubs repeats of one card). */
export function demoCardNumber(serial: number): string {
  const body = `411111111111${String(serial % 1000).padStart(3, "0")}`;
  for (let check = 0; check <= 9; check++) if (luhnValid(`${body}${check}`)) return `${body}${check}`;
  throw new Error("no check digit");
}

export type DemoPaymentSummary = { storedCards: number; payments: number; declined: number };

/**
 * Cards on file (with autopay) for every eighth customer, and a few payments, for each client on
 * the demo account. Needs a reachable gateway: throws when it does not answer (the caller warns).
 */
export async function seedDemoPayments(db: Database, gateway: PaymentGateway): Promise<DemoPaymentSummary> {
  const summary: DemoPaymentSummary = { storedCards: 0, payments: 0, declined: 0 };
  if (!gateway.url) return summary;
  const demoClients = await db
    .select({ id: clients.id })
    .from(clients)
    .where(
      inArray(clients.bluepayAccountId, [
        DEMO_GATEWAY_ACCOUNT.accountId,
        LEGACY_DEMO_GATEWAY_ACCOUNT.accountId,
      ]),
    )
    .orderBy(asc(clients.id));
  const clientIds = demoClients.map((client) => client.id);
  let serial = 0;
  for (const clientId of clientIds) {
    const rows = await db
      .select({ id: customers.id, customerNo: customers.customerNo, balance: customers.totalBalance })
      .from(customers)
      .where(
        and(eq(customers.clientId, clientId), eq(customers.deleted, false), gt(customers.totalBalance, "0")),
      )
      .orderBy(asc(customers.customerNo));
    const send = async (input: Omit<SendPaymentInput, "clientId" | "idempotencyKey">) => {
      serial += 1;
      const outcome = await sendPaymentAttempt(
        db,
        { ...input, clientId, idempotencyKey: `demo:${clientId}:${serial}` },
        gateway,
      );
      if (outcome.status === "pending" || outcome.status === "error")
        throw new Error(`the gateway did not answer the demo payment: ${outcome.message}`);
      return outcome;
    };
    const card = () => ({
      kind: "card" as const,
      number: demoCardNumber(serial),
      expire: "1239",
      cvv2: "123",
    });
    for (const customer of rows.filter((row) => row.customerNo % 8 === 3)) {
      await send({
        customerId: customer.id,
        source: "staff",
        kind: "auth",
        amount: "0",
        account: card(),
        autopay: true,
      });
      summary.storedCards += 1;
    }
    // A few paid part of their balance: by card on the pay page (odd dollars approve), by ACH,
    // with the stored card, and one card declined (even dollars decline in TEST mode).
    const payers = rows.filter((row) => row.customerNo % 8 !== 3).slice(0, 4);
    const [first, second, third, fourth] = payers;
    if (first)
      await send({ customerId: first.id, source: "page", kind: "sale", amount: "15.00", account: card() });
    if (second)
      await send({
        customerId: second.id,
        source: "staff",
        kind: "sale",
        amount: "21.00",
        account: { kind: "ach", accountType: "C", routing: "123456780", account: `9900${serial}` },
      });
    const stored = rows.find((row) => row.customerNo % 8 === 3);
    if (stored)
      await send({
        customerId: stored.id,
        source: "staff",
        kind: "sale",
        amount: "11.00",
        account: { kind: "stored" },
      });
    summary.payments += [first, second, stored].filter(Boolean).length;
    // An autopay charge of a stored card that its bank declined (even dollars): the declined
    // payment Home's work queue shows until someone follows it up.
    const autopayDeclined = rows.filter((row) => row.customerNo % 8 === 3)[1];
    if (autopayDeclined) {
      await send({
        customerId: autopayDeclined.id,
        source: "autopay",
        kind: "sale",
        amount: "12.00",
        account: { kind: "stored" },
      });
      summary.declined += 1;
    }
    if (third)
      await send({ customerId: third.id, source: "page", kind: "sale", amount: "30.00", account: card() });
    if (third) summary.declined += 1;
    if (fourth)
      await send({ customerId: fourth.id, source: "page", kind: "sale", amount: "9.00", account: card() });
    if (fourth) summary.payments += 1;
  }
  return summary;
}
