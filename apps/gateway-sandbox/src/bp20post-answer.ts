import { encodeAnswer, type ProtocolAnswer } from "./protocol-answer.js";
import { stampOf, type HashType } from "./sandbox-seal.js";
import type { SandboxTransaction } from "./sandbox-transaction.js";

// bp20post's answer by the request's RESPONSEVERSION (or VERSION when that is absent), as BluePay's
// published notes and SDKs show it: without a version only TRANS_ID, STATUS, AVS, CVV2, MESSAGE and
// REBID; with one also AUTH_CODE, the mask, card type and type; from 3 on the answer's own seal
// (BP_STAMP, BP_STAMP_DEF, TPS_HASH_TYPE); from 8 on STORED_ID (the 2021 stored-credential SDKs) and
// CUST_TOKEN when one was used or made.

/** The version a request asks for: RESPONSEVERSION, else VERSION; 0 when absent or not a whole number. */
export function responseVersionOf(fields: ReadonlyMap<string, string>): number {
  for (const name of ["RESPONSEVERSION", "VERSION"]) {
    const value = (fields.get(name) ?? "").trim();
    if (value === "") continue;
    return /^\d{1,6}$/.test(value) ? Number(value) : 0;
  }
  return 0;
}

/** Who seals an answer: the account's secret and the hash the request's seal used. */
export type StampKey = { secretKey: string; hashType: HashType };

/**
 * The fields BP_STAMP covers when the request names none in BP_STAMP_DEF (the sandbox's choice:
 * every field of the answer but the seal's own).
 */
export function defaultStampDef(pairs: ReadonlyArray<readonly [string, string]>): string[] {
  return pairs.map(([name]) => name);
}

/** Appends BP_STAMP_DEF, TPS_HASH_TYPE and BP_STAMP over the pairs (or the fields `requestedDef` names). */
export function stamped(
  pairs: ReadonlyArray<readonly [string, string]>,
  key: StampKey,
  requestedDef: string,
): Array<readonly [string, string]> {
  const names = requestedDef.trim() === "" ? defaultStampDef(pairs) : requestedDef.trim().split(/\s+/);
  const withType: Array<readonly [string, string]> = [
    ...pairs,
    ["BP_STAMP_DEF", names.join(" ")],
    ["TPS_HASH_TYPE", key.hashType],
  ];
  const values = new Map(withType.map(([name, value]) => [name, value]));
  return [...withType, ["BP_STAMP", stampOf(key.secretKey, key.hashType, values, names)]];
}

export function bp20postAnswer(
  transaction: SandboxTransaction,
  message: string,
  version: number,
  key: StampKey,
  requestedDef: string,
): ProtocolAnswer {
  const pairs: Array<readonly [string, string]> = [
    ["TRANS_ID", transaction.transId],
    ["STATUS", transaction.status],
    ["AVS", transaction.avs],
    ["CVV2", transaction.cvv2],
    ["MESSAGE", message],
    ["REBID", ""],
  ];
  if (version >= 1)
    pairs.push(
      ["AUTH_CODE", transaction.authCode],
      ["PAYMENT_ACCOUNT_MASK", transaction.mask],
      ["CARD_TYPE", transaction.cardType],
      ["TRANS_TYPE", transaction.transType],
    );
  if (version >= 8) {
    pairs.push(["STORED_ID", transaction.storedId]);
    if (transaction.custToken !== "") pairs.push(["CUST_TOKEN", transaction.custToken]);
  }
  return {
    httpStatus: 200,
    body: encodeAnswer(version >= 3 ? stamped(pairs, key, requestedDef) : pairs),
  };
}
