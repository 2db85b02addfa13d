import { createHash, createHmac } from "node:crypto";
import { refuse } from "./protocol-answer.js";

// How the sandbox checks a TAMPER_PROOF_SEAL, as BluePay documents it: the hash TPS_HASH_TYPE names
// (or, when absent, the account's own setting), over the values of the fields TPS_DEF names (or a
// fixed list when absent). HMAC types key the HMAC with the secret; MD5/SHA types prepend it.

export const HASH_TYPES = ["HMAC_SHA512", "HMAC_SHA256", "SHA512", "SHA256", "MD5"] as const;
export type HashType = (typeof HASH_TYPES)[number];

export function isHashType(value: string): value is HashType {
  return (HASH_TYPES as readonly string[]).includes(value);
}

/**
 * The type an account without a setting assumes when TPS_HASH_TYPE is absent: bp20post's 2008
 * MD5 (the sandbox's choice; BluePay's default setting for an account is not published).
 */
export const UNSET_ACCOUNT_HASH_TYPE: HashType = "MD5";

export function sealWith(secretKey: string, hashType: HashType, message: string): string {
  const digest = hashType.endsWith("SHA512") ? "sha512" : hashType.endsWith("SHA256") ? "sha256" : "md5";
  if (hashType.startsWith("HMAC_"))
    return createHmac(digest, secretKey).update(message, "utf8").digest("hex");
  return createHash(digest)
    .update(secretKey + message, "utf8")
    .digest("hex");
}

export type SealRule = {
  /** Sealed when TPS_DEF is absent. */
  defaultFields: readonly string[];
  /** A TPS_DEF must name these (the sandbox's choice: a seal that leaves the amount out protects nothing). */
  requiredFields: readonly string[];
};

/**
 * Checks the seal of a request for an account: TPS_HASH_TYPE, when sent, decides the hash (over the
 * account's own setting, as BluePay's bprebadmin document says); without it the account's setting
 * applies. Refuses a TPS_DEF missing a required field, or a seal that does not match (BluePay's
 * wording: SECURITY ERROR). Returns the hash type used.
 */
export function checkSeal(
  fields: ReadonlyMap<string, string>,
  account: { secretKey: string; hashType?: HashType },
  rule: SealRule,
): HashType {
  const named = (fields.get("TPS_HASH_TYPE") ?? "").trim().toUpperCase();
  if (named !== "" && !isHashType(named)) refuse("Invalid TPS_HASH_TYPE");
  const hashType = named === "" ? (account.hashType ?? UNSET_ACCOUNT_HASH_TYPE) : named;
  const def = (fields.get("TPS_DEF") ?? "").trim();
  const names = def === "" ? rule.defaultFields : def.split(/\s+/);
  const missing = rule.requiredFields.filter((name) => !names.includes(name));
  if (missing.length > 0) refuse(`TPS_DEF must include ${missing.join(" ")}`);
  // The seal covers the values as sent, untrimmed.
  const expected = sealWith(
    account.secretKey,
    hashType,
    names.map((name) => fields.get(name) ?? "").join(""),
  );
  if ((fields.get("TAMPER_PROOF_SEAL") ?? "").trim().toLowerCase() !== expected) refuse("SECURITY ERROR");
  return hashType;
}

/**
 * BP_STAMP, the answer's own seal, as BluePay's SDKs check it (validBPStamp, 2018): the hash the
 * answer's TPS_HASH_TYPE names, over the values of the fields BP_STAMP_DEF names (split on spaces),
 * concatenated in that order with nothing between ("" for an absent field), compared upper-case.
 */
export function stampOf(
  secretKey: string,
  hashType: HashType,
  values: ReadonlyMap<string, string>,
  defNames: readonly string[],
): string {
  return sealWith(secretKey, hashType, defNames.map((name) => values.get(name) ?? "").join("")).toUpperCase();
}
