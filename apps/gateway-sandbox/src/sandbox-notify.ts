import { reportTime } from "./sandbox-time.js";
import { isHashType, stampOf, UNSET_ACCOUNT_HASH_TYPE } from "./sandbox-seal.js";
import type { SandboxAccount, SandboxEvent } from "./sandbox-transaction.js";

// Trans Notify: a form-encoded POST to the merchant's URL for each new transaction and each
// settlement, with the fields of BluePay_Trans_Notify_Post.txt (2014) and its BP_STAMP: the hash
// of the secret key and trans_id, trans_status, trans_type, amount, batch_id, batch_status,
// total_count, total_amount, bupload_id, rebill_id, reb_amount, status ("" when absent); as the
// SDKs' notification samples read it, BP_STAMP_DEF names those fields and TPS_HASH_TYPE the hash
// (the account's hash; upper-case hex, as most samples compare). Best effort: a post that fails or
// answers other than 200 is tried again a few times; posts go out one at a time, in order, and
// never hold up a gateway answer.

export const NOTIFY_STAMP_FIELDS = [
  "trans_id",
  "trans_status",
  "trans_type",
  "amount",
  "batch_id",
  "batch_status",
  "total_count",
  "total_amount",
  "bupload_id",
  "rebill_id",
  "reb_amount",
  "status",
] as const;

/** Waits between tries (the first try at once). */
const RETRY_DELAYS_MS = [0, 250, 1_000, 3_000];
const POST_TIMEOUT_MS = 5_000;

export type Notifier = {
  setUrl: (url: string | null) => void;
  url: () => string | null;
  send: (event: SandboxEvent) => void;
  /** Resolves when every queued post has been delivered or given up. */
  idle: () => Promise<void>;
  close: () => void;
};

export function notifyFields(event: SandboxEvent, account: SandboxAccount | undefined): URLSearchParams {
  const t = event.transaction;
  const fields: Array<[string, string]> = [
    ["trans_id", t.transId],
    ["master_id", t.masterId],
    ["rebill_id", ""],
    ["card_account", t.mask],
    ["card_expire", t.cardExpire],
    ["bank_name", ""],
    ["amount", t.amount],
    ["trans_status", t.status],
    ["trans_type", t.transType],
    ["card_type", t.paymentType === "ACH" ? "" : t.cardType],
    ["payment_type", t.paymentType],
    ["origin", t.origin],
    ["order_id", t.orderId],
    ["invoice_id", t.invoiceId],
    ["name1", t.name1],
    ["name2", t.name2],
    ["memo", t.memo],
    ["auth_code", t.authCode],
    ["message", t.message],
    ["issue_date", reportTime(t.issuedAt)],
    ["avs_result", t.avs],
    ["cvv2_result", t.cvv2],
    ["f_void", t.voided ? "1" : "0"],
    ["mode", t.mode],
    // The sandbox's own additions: the settlement (batch_id is the field BP_STAMP names) and why.
    ["batch_id", t.settlementId],
    ["settle_date", t.settleDate],
    ["notify_type", event.kind],
  ];
  const values = new Map(fields);
  const hashType = isHashType(t.hashType) ? t.hashType : (account?.hashType ?? UNSET_ACCOUNT_HASH_TYPE);
  const params = new URLSearchParams(fields);
  params.set("BP_STAMP_DEF", NOTIFY_STAMP_FIELDS.join(" "));
  params.set("TPS_HASH_TYPE", hashType);
  if (account) params.set("BP_STAMP", stampOf(account.secretKey, hashType, values, NOTIFY_STAMP_FIELDS));
  return params;
}

export function createNotifier(accountOf: (accountId: string) => SandboxAccount | undefined): Notifier {
  let target: string | null = null;
  let queue: Promise<void> = Promise.resolve();
  const stop = new AbortController();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms === 0 || stop.signal.aborted) return resolve();
      const timer = setTimeout(resolve, ms);
      stop.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve();
      });
    });

  async function deliver(url: string, body: string): Promise<void> {
    for (const delay of RETRY_DELAYS_MS) {
      await pause(delay);
      if (stop.signal.aborted) return;
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
          signal: AbortSignal.any([stop.signal, AbortSignal.timeout(POST_TIMEOUT_MS)]),
        });
        await response.arrayBuffer().catch(() => undefined);
        if (response.status === 200) return;
      } catch {
        // Tried again below; the gateway's answer never waits on the merchant's server.
      }
    }
  }

  return {
    setUrl: (url) => {
      if (url !== null && !/^https?:$/.test(new URL(url).protocol)) throw new Error("not an http(s) URL");
      target = url;
    },
    url: () => target,
    send: (event) => {
      const url = target;
      if (url === null) return;
      // The fields are read now: later changes to the record belong to later posts.
      const body = notifyFields(event, accountOf(event.transaction.accountId)).toString();
      queue = queue.then(() => deliver(url, body));
    },
    idle: () => queue,
    close: () => stop.abort(),
  };
}
