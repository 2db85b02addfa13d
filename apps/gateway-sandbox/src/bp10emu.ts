import { stamped } from "./bp20post-answer.js";
import { encodeAnswer } from "./protocol-answer.js";
import type { SandboxBook } from "./sandbox-book.js";
import type { SealRule } from "./sandbox-seal.js";
import type { SandboxDelivery } from "./sandbox-transaction.js";

// BluePay's "Redirect-1.0 Post" interface (bp10emu), which BluePay's own SDKs post to: its field
// names are mapped onto the book's bp20post rules, and the answer is an HTTP 302 whose Location
// carries the result fields in its query string (the SDKs read them from there, never the body).

export const BP10EMU_PATH = "/interfaces/bp10emu";

/** bp10emu's default TAMPER_PROOF_SEAL fields, in the document's order (secret key first). */
export const BP10EMU_SEAL_FIELDS = [
  "MERCHANT",
  "TRANSACTION_TYPE",
  "AMOUNT",
  "REBILLING",
  "REB_FIRST_DATE",
  "REB_EXPR",
  "REB_CYCLES",
  "REB_AMOUNT",
  "RRNO",
  "AVS_ALLOWED",
  "AUTOCAP",
  "MODE",
];
// The document lets a TPS_DEF leave even the amount out (a donation form): nothing is required.
const BP10EMU_SEAL: SealRule = { defaultFields: BP10EMU_SEAL_FIELDS, requiredFields: [] };

// Fields passed on under the same name.
const SAME_NAMES = [
  "PAYMENT_TYPE",
  "AMOUNT",
  "ORDER_ID",
  "INVOICE_ID",
  "NAME1",
  "NAME2",
  "ADDR1",
  "ADDR2",
  "DOC_TYPE",
  "DUPLICATE_OVERRIDE",
  "TPS_HASH_TYPE",
  "STORED_INDICATOR",
  "STORED_TYPE",
  "STORED_ID",
  "CUSTOMER_IP",
  "CUST_TOKEN",
  "NEW_CUST_TOKEN",
];
// bp20post's name for a bp10emu "Missing <FIELD>" (Result=MISSING, MISSING=<field>).
const BP10EMU_NAMES: Record<string, string> = {
  PAYMENT_ACCOUNT: "CC_NUM",
  MASTER_ID: "RRNO",
  ACCOUNT_ID: "MERCHANT",
  MERCHANT: "MERCHANT",
};

function translate(raw: ReadonlyMap<string, string>): Map<string, string> {
  const field = (name: string) => (raw.get(name) ?? "").trim();
  const out = new Map<string, string>();
  for (const name of SAME_NAMES) if (field(name) !== "") out.set(name, field(name));
  out.set("ACCOUNT_ID", field("MERCHANT"));
  out.set("TRANS_TYPE", field("TRANSACTION_TYPE"));
  if (field("RRNO") !== "") out.set("MASTER_ID", field("RRNO"));
  if (field("REMOTE_IP") !== "" && !out.has("CUSTOMER_IP")) out.set("CUSTOMER_IP", field("REMOTE_IP"));
  // MODE: "TEST is the default if not sent or invalid".
  out.set("MODE", field("MODE") === "LIVE" ? "LIVE" : "TEST");
  if (field("NAME1") === "" && field("NAME") !== "") {
    const [first = "", ...rest] = field("NAME").split(/\s+/);
    out.set("NAME1", first);
    out.set("NAME2", rest.join(" "));
  }
  if (field("PAYMENT_TYPE") === "ACH") {
    if (field("ACH_ROUTING") !== "" || field("ACH_ACCOUNT") !== "")
      out.set(
        "PAYMENT_ACCOUNT",
        `${field("ACH_ACCOUNT_TYPE") || "C"}:${field("ACH_ROUTING")}:${field("ACH_ACCOUNT")}`,
      );
  } else {
    if (field("CC_NUM") !== "") out.set("PAYMENT_ACCOUNT", field("CC_NUM"));
    const expires = field("CC_EXPIRES") || field("CC_EXPIRES_MONTH") + field("CC_EXPIRES_YEAR");
    if (expires !== "") out.set("CARD_EXPIRE", expires);
    if (field("CVCCVV2") !== "") out.set("CARD_CVV2", field("CVCCVV2"));
  }
  return out;
}

function versionOf(raw: ReadonlyMap<string, string>): number {
  const value = (raw.get("RESPONSEVERSION") ?? "").trim();
  return /^\d{1,6}$/.test(value) ? Number(value) : 0;
}

/** The redirect target (Location) for a bp10emu post. */
export function bp10emu(
  book: SandboxBook,
  raw: ReadonlyMap<string, string>,
  delivery: SandboxDelivery,
  sandboxUrl: string,
): { location: string; transId?: string } {
  const translated = translate(raw);
  const done = book.process(translated, delivery, {
    origin: "bp10emu",
    sealFields: raw,
    sealRule: BP10EMU_SEAL,
  });
  const field = (name: string) => (raw.get(name) ?? "").trim();
  // Without the merchant's URLs the interface puts "its own bogus values" there: the sandbox's.
  const urlFor = (result: string, given: string) =>
    given || `${sandboxUrl}/sandbox/bp10emu/${result.toLowerCase()}`;
  if (done.kind === "refused") {
    const missing = /^Missing (\S+)$/.exec(done.message);
    const result = missing ? "MISSING" : "ERROR";
    const pairs: Array<readonly [string, string]> = [
      ["Result", result],
      ["MESSAGE", done.message],
      ["RRNO", ""],
      ...(missing ? ([["MISSING", BP10EMU_NAMES[missing[1] ?? ""] ?? missing[1] ?? ""]] as const) : []),
    ];
    const target = urlFor(result, missing ? field("MISSING_URL") : field("DECLINED_URL"));
    return { location: `${target}?${encodeAnswer(pairs)}` };
  }
  const t = done.transaction;
  const result = t.status === "1" ? "APPROVED" : "DECLINED";
  const version = versionOf(raw);
  const pairs: Array<readonly [string, string]> = [
    ["Result", result],
    ["MESSAGE", done.message],
    ["RRNO", t.transId],
    ["AMOUNT", t.amount],
    ["AUTH_CODE", t.authCode],
    ["AVS", t.avs],
    ["BANK_NAME", ""],
    ["CARD_EXPIRE", t.cardExpire],
    ["CARD_TYPE", t.paymentType === "ACH" ? "" : t.cardType],
    ["CVV2", t.cvv2],
    ["INVOICE_ID", t.invoiceId],
    ["ORDER_ID", t.orderId],
    ["PAYMENT_ACCOUNT", t.mask],
    ["PAYMENT_TYPE", t.paymentType],
    ["REBID", ""],
  ];
  if (version >= 1)
    pairs.push(
      ["TRANS_ID", t.transId],
      ["ID", t.transId],
      ["STATUS", t.status],
      ["TRANS_TYPE", t.transType],
      ["FANCY_STATUS", t.status === "1" ? "Approved" : "Declined"],
      ["MODE", t.mode],
      ["ORIGIN", t.origin],
      ["NAME1", t.name1],
      ["NAME2", t.name2],
      ["ISSUE_DATE", t.issuedAt.slice(0, 19).replace("T", " ")],
    );
  if (version >= 3)
    pairs.push(
      ["MERCHANT", field("MERCHANT")],
      ["TRANSACTION_TYPE", field("TRANSACTION_TYPE")],
      ["RESPONSEVERSION", field("RESPONSEVERSION")],
      ["DOC_TYPE", field("DOC_TYPE")],
    );
  if (version >= 8) {
    pairs.push(["STORED_ID", t.storedId]);
    if (t.custToken !== "") pairs.push(["CUST_TOKEN", t.custToken]);
  }
  const key = { secretKey: done.secretKey, hashType: done.hashType };
  // bp10emu's document lists BP_STAMP from RESPONSEVERSION 1 on.
  const answer = version >= 1 ? stamped(pairs, key, field("BP_STAMP_DEF")) : pairs;
  const target = urlFor(result, result === "APPROVED" ? field("APPROVED_URL") : field("DECLINED_URL"));
  return { location: `${target}?${encodeAnswer(answer)}`, transId: t.transId };
}
