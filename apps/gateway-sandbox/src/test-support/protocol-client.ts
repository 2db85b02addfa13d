import { createHash, createHmac } from "node:crypto";
import type { Sandbox } from "../bluepay-sandbox.js";
import { DEMO_ACCOUNT } from "../sandbox-accounts.js";

// Speaks to a sandbox the way a merchant would, sealing with its own code (not the sandbox's):
// HMAC_SHA512 named in TPS_HASH_TYPE, as BluePay's SDKs do, unless told another type.

export type Answer = { httpStatus: number; fields: Map<string, string> };

export const CARD = "4111111111111111";
export const EXPIRE = "1299";
/** A fixed clock (June 2030), so nothing depends on the day the tests run. */
export const JUNE_2030 = Date.UTC(2030, 5, 15, 12, 0, 0);

export type TestHashType = "HMAC_SHA512" | "HMAC_SHA256" | "SHA512" | "SHA256" | "MD5";

export function seal(
  secretKey: string,
  fields: Record<string, string>,
  names: readonly string[],
  hashType: TestHashType = "MD5",
): string {
  const message = names.map((name) => fields[name] ?? "").join("");
  const digest = {
    HMAC_SHA512: "sha512",
    HMAC_SHA256: "sha256",
    SHA512: "sha512",
    SHA256: "sha256",
    MD5: "md5",
  }[hashType];
  if (hashType.startsWith("HMAC_")) return createHmac(digest, secretKey).update(message).digest("hex");
  return createHash(digest)
    .update(secretKey + message)
    .digest("hex");
}

function sealed(
  fields: Record<string, string>,
  secretKey: string,
  names: readonly string[],
): Record<string, string> {
  const hashType = (fields.TPS_HASH_TYPE ?? "HMAC_SHA512") as TestHashType;
  const withType = { TPS_HASH_TYPE: hashType, ...fields };
  return { ...withType, TAMPER_PROOF_SEAL: seal(secretKey, withType, names, hashType) };
}

const TRANSACTION_SEAL = ["ACCOUNT_ID", "TRANS_TYPE", "AMOUNT", "MASTER_ID", "NAME1", "PAYMENT_ACCOUNT"];

async function postForm(url: string, fields: Record<string, string>): Promise<Answer> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  const fieldsOut = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(await response.text())) fieldsOut.set(name, value);
  return { httpStatus: response.status, fields: fieldsOut };
}

/** A sealed bp20post request; `secretKey: null` leaves the seal off, a string seals with that key. */
export function transaction(
  sandbox: Sandbox,
  fields: Record<string, string>,
  secretKey: string | null = DEMO_ACCOUNT.secretKey,
): Promise<Answer> {
  // RESPONSEVERSION 1 unless told (an empty one is sent as asked: the version-less answer).
  const all = { ACCOUNT_ID: DEMO_ACCOUNT.accountId, MODE: "TEST", RESPONSEVERSION: "1", ...fields };
  return postForm(sandbox.bp20postUrl, secretKey === null ? all : sealed(all, secretKey, TRANSACTION_SEAL));
}

/** A card SALE on the demo account. */
export function sale(
  sandbox: Sandbox,
  amount: string,
  extra: Record<string, string> = {},
  secretKey: string = DEMO_ACCOUNT.secretKey,
): Promise<Answer> {
  return transaction(
    sandbox,
    {
      TRANS_TYPE: "SALE",
      PAYMENT_TYPE: "CREDIT",
      AMOUNT: amount,
      PAYMENT_ACCOUNT: CARD,
      CARD_EXPIRE: EXPIRE,
      CARD_CVV2: "987",
      NAME1: "Bob",
      NAME2: "Tester",
      ...extra,
    },
    secretKey,
  );
}

/** A sealed stq query on the demo account, for June 2030 unless told otherwise. */
export function query(
  sandbox: Sandbox,
  filters: Record<string, string>,
  secretKey: string = DEMO_ACCOUNT.secretKey,
): Promise<Answer> {
  const fields = {
    ACCOUNT_ID: DEMO_ACCOUNT.accountId,
    MODE: "TEST",
    REPORT_START_DATE: "2030-06-14",
    REPORT_END_DATE: "2030-06-16",
    ...filters,
  };
  return postForm(
    sandbox.stqUrl,
    sealed(fields, secretKey, ["ACCOUNT_ID", "REPORT_START_DATE", "REPORT_END_DATE"]),
  );
}
