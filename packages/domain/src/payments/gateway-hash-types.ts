// The hashes BluePay seals a request with (TPS_HASH_TYPE). Its SDKs send HMAC_SHA512 since 2018;
// the others are for accounts whose "Hash Type in APIs" setting still names them.

export const GATEWAY_HASH_TYPES = ["HMAC_SHA512", "HMAC_SHA256", "SHA512", "SHA256", "MD5"] as const;
export type GatewayHashType = (typeof GATEWAY_HASH_TYPES)[number];
export const DEFAULT_GATEWAY_HASH_TYPE: GatewayHashType = "HMAC_SHA512";

export function isGatewayHashType(value: unknown): value is GatewayHashType {
  return typeof value === "string" && (GATEWAY_HASH_TYPES as readonly string[]).includes(value);
}
