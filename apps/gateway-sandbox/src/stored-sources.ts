import type { SandboxTransaction } from "./sandbox-transaction.js";

// Charging a payer again without the account being sent: by an earlier TRANS_ID (MASTER_ID), kept
// three years from the transaction that stored it (BluePay's developer FAQ: "encrypted card holder
// data is securely kept for 3 years"), or by a customer token (NEW_CUST_TOKEN on a first AUTH or
// SALE, CUST_TOKEN later, as BluePay's SDKs send them).

export const RETENTION_YEARS = 3;

/** Whether the payment data a transaction stored is past BluePay's retention at `now`. */
export function retentionOver(master: SandboxTransaction, now: Date): boolean {
  const until = new Date(master.issuedAt);
  until.setUTCFullYear(until.getUTCFullYear() + RETENTION_YEARS);
  return now.getTime() >= until.getTime();
}

/** Each account's customer tokens and the transaction whose payment data each names. */
export function createCustomerTokens(kept: Iterable<SandboxTransaction>) {
  const tokens = new Map<string, SandboxTransaction>();
  const key = (accountId: string, token: string) => `${accountId} ${token}`;
  const register = (transaction: SandboxTransaction) => {
    if (transaction.tokenCreated) tokens.set(key(transaction.accountId, transaction.custToken), transaction);
  };
  for (const transaction of kept) register(transaction);
  return {
    register,
    find: (accountId: string, token: string) => tokens.get(key(accountId, token)),
  };
}
