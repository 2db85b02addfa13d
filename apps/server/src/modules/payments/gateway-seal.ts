import { createHash, createHmac } from "node:crypto";
import type { GatewayHashType } from "@cyclebill/domain";

// BluePay's TAMPER_PROOF_SEAL over the values of the fields TPS_DEF names (in that order, an absent
// field counting as ""), hashed as TPS_HASH_TYPE says: for the HMAC types the secret key is the
// HMAC key and the values are the message; for MD5/SHA256/SHA512 the secret key is prepended to
// the values. The gateway recomputes it with its copy of the key and refuses the request when they
// differ, so the amount and account cannot be changed on the way and the key never travels.

/** bp20post (transactions): the fields BluePay's 2008 clients sealed, now named in TPS_DEF. */
export const SEAL_FIELDS = [
  "ACCOUNT_ID",
  "TRANS_TYPE",
  "AMOUNT",
  "MASTER_ID",
  "NAME1",
  "PAYMENT_ACCOUNT",
] as const;
/** stq (the single-transaction query), as BluePay's report interfaces seal. */
export const QUERY_SEAL_FIELDS = ["ACCOUNT_ID", "REPORT_START_DATE", "REPORT_END_DATE"] as const;

const DIGESTS: Record<GatewayHashType, { hmac: boolean; digest: "sha512" | "sha256" | "md5" }> = {
  HMAC_SHA512: { hmac: true, digest: "sha512" },
  HMAC_SHA256: { hmac: true, digest: "sha256" },
  SHA512: { hmac: false, digest: "sha512" },
  SHA256: { hmac: false, digest: "sha256" },
  MD5: { hmac: false, digest: "md5" },
};

export function sealOf(
  secretKey: string,
  hashType: GatewayHashType,
  fields: Readonly<Record<string, string>>,
  names: readonly string[],
): string {
  const message = names.map((name) => fields[name] ?? "").join("");
  const { hmac, digest } = DIGESTS[hashType];
  if (hmac) return createHmac(digest, secretKey).update(message, "utf8").digest("hex");
  return createHash(digest)
    .update(secretKey + message, "utf8")
    .digest("hex");
}

/** The fields with TPS_HASH_TYPE, TPS_DEF and the seal they describe added. */
export function sealFields(
  secretKey: string,
  hashType: GatewayHashType,
  fields: Readonly<Record<string, string>>,
  names: readonly string[],
): Record<string, string> {
  return {
    ...fields,
    TPS_HASH_TYPE: hashType,
    TPS_DEF: names.join(" "),
    TAMPER_PROOF_SEAL: sealOf(secretKey, hashType, fields, names),
  };
}
