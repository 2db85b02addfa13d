import { parseAmountCents } from "./card-checks.js";
import { encodeAnswer, refuse, type ProtocolAnswer } from "./protocol-answer.js";
import type { SandboxTransaction } from "./sandbox-transaction.js";

// The single-transaction query (BluePay's stq report interface), here mainly to answer "did the
// charge for this ORDER_ID happen?" after a lost answer, instead of charging again.

/** The stq seal: md5 of the secret key and these fields' values in this order. */
export const QUERY_SEAL_FIELDS = ["ACCOUNT_ID", "REPORT_START_DATE", "REPORT_END_DATE"];

// stq filters (lower-case, as BluePay's report interfaces name them) and the field each compares.
const QUERY_FILTERS: ReadonlyArray<readonly [string, keyof SandboxTransaction]> = [
  ["id", "transId"],
  ["order_id", "orderId"],
  ["invoice_id", "invoiceId"],
  ["trans_type", "transType"],
  ["payment_type", "paymentType"],
  ["status", "status"],
  ["name1", "name1"],
  ["name2", "name2"],
];

/** The newest of the account's transactions issued in the date range (UTC days) that match every filter. */
export function queryAnswer(
  fields: ReadonlyMap<string, string>,
  accountId: string,
  transactions: readonly SandboxTransaction[],
): ProtocolAnswer {
  const field = (name: string) => (fields.get(name) ?? "").trim();
  const start = field("REPORT_START_DATE").slice(0, 10);
  const end = field("REPORT_END_DATE").slice(0, 10);
  for (const [name, value] of [
    ["REPORT_START_DATE", start],
    ["REPORT_END_DATE", end],
  ] as const)
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) refuse(`Invalid ${name}`);
  // "MODE defaults to LIVE" (the stq document): the sandbox's TEST transactions need MODE=TEST.
  const mode = field("MODE").toUpperCase() || "LIVE";
  const amount = field("amount");
  const cents = amount === "" ? null : (parseAmountCents(amount) ?? refuse("Invalid amount"));
  const found = transactions
    .filter((transaction) => {
      const day = transaction.issuedAt.slice(0, 10);
      if (transaction.accountId !== accountId || day < start || day > end) return false;
      if (transaction.mode !== mode) return false;
      if (cents !== null && parseAmountCents(transaction.amount) !== cents) return false;
      return QUERY_FILTERS.every(
        ([name, key]) => field(name) === "" || String(transaction[key]) === field(name),
      );
    })
    .at(-1);
  if (!found) return { httpStatus: 200, body: encodeAnswer([["MESSAGE", "No transactions found"]]) };
  return {
    httpStatus: 200,
    body: encodeAnswer([
      ["id", found.transId],
      ["status", found.status],
      ["trans_type", found.transType],
      ["payment_type", found.paymentType],
      ["amount", found.amount],
      ["order_id", found.orderId],
      ["invoice_id", found.invoiceId],
      ["message", found.message],
      ["name1", found.name1],
      ["name2", found.name2],
      ["payment_account", found.mask],
      ["card_type", found.cardType],
      ["auth_code", found.authCode],
      ["master_id", found.masterId],
      ["issue_date", found.issuedAt.slice(0, 19).replace("T", " ")],
      ["origin", found.origin],
      ["f_void", found.voided ? "1" : "0"],
      ["settle_date", found.settleDate],
      ["settlement_id", found.settlementId],
    ]),
  };
}
