import type { Config } from "../../config.js";
import type { Database } from "../../db/database.js";
import { nonFieldError } from "../../http/errors.js";
import { NO_GATEWAY_KEY_MESSAGE } from "@cyclebill/domain";
import type { BluepayCredentials, BluepayMode } from "./bluepay-client.js";
import { loadBluepayCredentials } from "./bluepay-credentials.js";

/** Where and how payments go: the configured bp20post address, mode and time-out, and the key that opens clients' secrets. */
export type PaymentGateway = {
  /** null: no gateway configured, payments are refused. */
  url: string | null;
  mode: BluepayMode;
  timeoutMs: number;
  secretsKey: string;
  /** Prefixes every ORDER_ID (orderIdOf), so lookups never find another installation's charge. */
  installationId: string;
};

export function paymentGatewayOf(
  config: Pick<Config, "bluepay" | "secretsKey" | "installationId">,
): PaymentGateway {
  return {
    installationId: config.installationId,
    url: config.bluepay.url,
    mode: config.bluepay.mode,
    timeoutMs: config.bluepay.timeoutMs,
    secretsKey: config.secretsKey,
  };
}

export const NO_GATEWAY_URL_MESSAGE = "Card payments are not available: no payment gateway is configured.";

/** The gateway address and the client's credentials, or a 400 saying why payments are refused. */
export async function gatewayAccess(
  db: Database,
  gateway: PaymentGateway,
  clientId: number,
): Promise<{ url: string; credentials: BluepayCredentials }> {
  if (!gateway.url) throw nonFieldError(NO_GATEWAY_URL_MESSAGE);
  const credentials = await loadBluepayCredentials(db, gateway.secretsKey, clientId);
  if (!credentials) throw nonFieldError(NO_GATEWAY_KEY_MESSAGE);
  return { url: gateway.url, credentials };
}
