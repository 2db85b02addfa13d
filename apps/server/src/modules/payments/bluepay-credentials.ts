import { eq } from "drizzle-orm";
import { DEFAULT_GATEWAY_HASH_TYPE, isGatewayHashType } from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { clients } from "../../db/tables.js";
import { openSecret } from "../secrets/secret-box.js";
import type { BluepayCredentials } from "./bluepay-client.js";
import { gatewayKeyColumns, takesCardPayments } from "./card-payments-taken.js";

/**
 * A client's BluePay account id, secret key (opened from its encrypted column) and seal hash type, or null when the
 * client has none. A key that does not open with this BILLING_SECRETS_KEY is a configuration error,
 * not "no key": it throws, naming the client and never the key.
 */
export async function loadBluepayCredentials(
  db: Database,
  secretsKey: string,
  clientId: number,
): Promise<BluepayCredentials | null> {
  const [row] = await db
    .select({
      ...gatewayKeyColumns,
      hashType: clients.gatewayHashType,
    })
    .from(clients)
    .where(eq(clients.id, clientId));
  if (!row || !row.sealed || !takesCardPayments(row)) return null;
  const secretKey = openSecret(secretsKey, row.sealed);
  if (secretKey === null)
    throw new Error(`client ${clientId}'s BluePay secret key does not open with this BILLING_SECRETS_KEY`);
  // null (or a value this code does not know) seals as BluePay's SDKs do: HMAC_SHA512.
  const hashType = isGatewayHashType(row.hashType) ? row.hashType : DEFAULT_GATEWAY_HASH_TYPE;
  return { accountId: row.accountId.trim(), secretKey, hashType };
}
