import type { SandboxAccount } from "./sandbox-book.js";

/**
 * The account every sandbox accepts unless told not to: documented, so a demo client can be pointed
 * at it (bluepay_account_id and bluepay_secret_key). BluePay account ids are 12 digits and secret
 * keys 32 characters; this one is neither secret nor real.
 */
export const DEMO_ACCOUNT: SandboxAccount = {
  accountId: "100200300400",
  secretKey: "CYCLEBILLSANDBOXDEMOSECRETKEY001",
};

/** "id:secret,id:secret" (BLUEPAY_SANDBOX_ACCOUNTS, --accounts); a secret may itself contain ":". */
export function parseAccounts(text: string | undefined): SandboxAccount[] {
  const accounts: SandboxAccount[] = [];
  for (const [index, entry] of (text ?? "").split(",").entries()) {
    if (entry.trim() === "") continue;
    const at = entry.indexOf(":");
    const accountId = at < 0 ? "" : entry.slice(0, at).trim();
    const secretKey = at < 0 ? "" : entry.slice(at + 1).trim();
    // The entry is not echoed: it may hold a secret key.
    if (accountId === "" || secretKey === "")
      throw new Error(
        `sandbox accounts are "id:secret" pairs separated by commas; entry ${index + 1} is not`,
      );
    accounts.push({ accountId, secretKey });
  }
  return accounts;
}
