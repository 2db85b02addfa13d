import { luhnValid } from "@cyclebill/domain";
import type { Database } from "../db/database.js";
import { customerPaymentMethods } from "../db/tables.js";
import { sealSecret } from "../modules/secrets/secret-box.js";
import {
  buildRequest,
  callGateway,
  type BluepayCredentials,
  type BluepayCustomer,
} from "../modules/payments/bluepay-client.js";

/** A client's gateway account as the clients table keeps it: the secret key sealed with `secretsKey`. */
export function gatewayAccountFields(secretsKey: string, account: BluepayCredentials) {
  return {
    bluepayAccountId: account.accountId,
    bluepaySecretKeyEncrypted: sealSecret(secretsKey, account.secretKey),
  };
}

/** A Luhn-valid 16-digit card number: `prefix`, then `serial` zero-padded, then the check digit. */
export function luhnCard(prefix: string, serial: number): string {
  const body = `${prefix}${String(serial).padStart(15 - prefix.length, "0")}`;
  for (let check = 0; check < 10; check++) if (luhnValid(`${body}${check}`)) return `${body}${check}`;
  throw new Error("no check digit");
}

/**
 * Stores a card for a customer as the staff form stores one: a $0.00 AUTH at the gateway (sandbox)
 * whose TRANS_ID is the token, written to the customer's payment methods. `duplicateOverride`
 * stores a card another customer holds too; `payer` names the card holder to the gateway.
 */
export async function storeCardOnFile(
  db: Database,
  gateway: { url: string; account: BluepayCredentials },
  owner: { clientId: number; customerId: number },
  cardNumber: string,
  options: { duplicateOverride?: boolean; payer?: BluepayCustomer } = {},
): Promise<void> {
  const answer = await callGateway(
    gateway.url,
    buildRequest(gateway.account, {
      transType: "AUTH",
      mode: "TEST",
      amount: "0.00",
      account: { kind: "card", number: cardNumber, expire: "1299" },
      duplicateOverride: options.duplicateOverride,
      customer: options.payer,
    }),
    { timeoutMs: 5_000 },
  );
  if (answer.status !== "approved") throw new Error(`AUTH refused: ${JSON.stringify(answer)}`);
  await db.insert(customerPaymentMethods).values({
    ...owner,
    kind: "card",
    token: answer.transId,
    mask: answer.mask,
    cardType: answer.cardType,
    expiry: "1299",
  });
}
