import { createHash } from "node:crypto";

// BluePay's TAMPER_PROOF_SEAL: the hex MD5 of the client's secret key followed by the values of a
// fixed list of fields, an absent field counting as "". The gateway recomputes it with its copy of
// the key and refuses the request when they differ, so the amount and card cannot be changed on
// the way and the key itself never travels.

/** bp20post (transactions). */
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

export function sealOf(
  secretKey: string,
  fields: Readonly<Record<string, string>>,
  names: readonly string[] = SEAL_FIELDS,
): string {
  const text = secretKey + names.map((name) => fields[name] ?? "").join("");
  return createHash("md5").update(text, "utf8").digest("hex");
}
