import type { SandboxAccount } from "./sandbox-transaction.js";
import { isHashType } from "./sandbox-seal.js";

/**
 * The account every sandbox accepts unless told not to: documented, so a demo client can be pointed
 * at it (bluepay_account_id and bluepay_secret_key). BluePay account ids are 12 digits and secret
 * keys 32 characters; this one is neither secret nor real.
 */
export const DEMO_ACCOUNT: SandboxAccount = {
  accountId: "100200300400",
  secretKey: "CYCLEBILLSANDBOXDEMOSECRETKEY001",
  hashType: "HMAC_SHA512",
};

/** A second demo account set to MD5, as a legacy BluePay account still may be (the demo's legacy client). */
export const LEGACY_DEMO_ACCOUNT: SandboxAccount = {
  accountId: "100200300401",
  secretKey: "CYCLEBILLSANDBOXLEGACYMD5KEY0001",
  hashType: "MD5",
};

/**
 * "id:secret[:HASH_TYPE],..." (BLUEPAY_SANDBOX_ACCOUNTS, --accounts); a secret may itself contain
 * ":", so a trailing ":HMAC_SHA512" (or another of the five types) is the account's one hash type.
 */
export function parseAccounts(text: string | undefined): SandboxAccount[] {
  const accounts: SandboxAccount[] = [];
  for (const [index, entry] of (text ?? "").split(",").entries()) {
    if (entry.trim() === "") continue;
    const at = entry.indexOf(":");
    const accountId = at < 0 ? "" : entry.slice(0, at).trim();
    let secretKey = at < 0 ? "" : entry.slice(at + 1).trim();
    const last = secretKey.lastIndexOf(":");
    const hashType =
      last < 0
        ? ""
        : secretKey
            .slice(last + 1)
            .trim()
            .toUpperCase();
    if (isHashType(hashType)) secretKey = secretKey.slice(0, last);
    // The entry is not echoed: it may hold a secret key.
    if (accountId === "" || secretKey === "")
      throw new Error(
        `sandbox accounts are "id:secret" pairs separated by commas; entry ${index + 1} is not`,
      );
    accounts.push({ accountId, secretKey, ...(isHashType(hashType) ? { hashType } : {}) });
  }
  return accounts;
}
