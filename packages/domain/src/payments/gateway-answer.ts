// Reading BluePay 2.0 (bp20post) answers. The gateway answers with form-encoded name=value pairs;
// STATUS decides: "1" approved, "0" declined, anything else an error. One exception: duplicate
// scrubbing answers STATUS=1 with MESSAGE=DUPLICATE and the *original* transaction's other fields,
// so it is its own outcome (nothing new was charged; the original TRANS_ID is returned).

export type GatewayStatus = "approved" | "declined" | "error" | "duplicate";

/** One bp20post answer, typed. Absent fields are empty strings, as the gateway leaves them. */
export type GatewayAnswer = {
  status: GatewayStatus;
  /** STATUS exactly as the gateway wrote it ("1", "0", "E", ...). */
  rawStatus: string;
  transId: string;
  message: string;
  avs: string;
  cvv2: string;
  authCode: string;
  /** PAYMENT_ACCOUNT_MASK, e.g. "xxxxxxxxxxxx1111"; never the full account. */
  mask: string;
  cardType: string;
  transType: string;
  /** STORED_ID: the network transaction id of a card-on-file charge ("" when none). */
  storedId: string;
};

const DUPLICATE_MESSAGE = "DUPLICATE";

/**
 * Form decoding as browsers and gateways write it: "+" is a space, %XX a byte. A malformed escape
 * keeps the raw text instead of failing, so one odd field never hides the rest of the answer.
 * A Map, so a field named like an Object property (constructor, __proto__) is just a field.
 */
export function parseFormEncoded(body: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const pair of body.trim().split("&")) {
    if (pair === "") continue;
    const at = pair.indexOf("=");
    const name = decodeFormPart(at < 0 ? pair : pair.slice(0, at));
    const value = at < 0 ? "" : decodeFormPart(pair.slice(at + 1));
    if (name !== "" && !fields.has(name)) fields.set(name, value);
  }
  return fields;
}

function decodeFormPart(text: string): string {
  const spaced = text.replace(/\+/g, " ");
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** The outcome STATUS gives, with duplicate scrubbing told apart from a new approval. */
export function gatewayStatusOf(rawStatus: string, message: string): GatewayStatus {
  if (rawStatus === "1") return message.trim().toUpperCase() === DUPLICATE_MESSAGE ? "duplicate" : "approved";
  if (rawStatus === "0") return "declined";
  return "error";
}

/**
 * The typed answer, or null when the body is not a gateway answer at all (no STATUS): a proxy's
 * error page or a cut-off body says nothing about whether the charge happened.
 */
export function readGatewayAnswer(body: string): GatewayAnswer | null {
  const fields = parseFormEncoded(body);
  const rawStatus = fields.get("STATUS");
  if (rawStatus === undefined || rawStatus.trim() === "") return null;
  const field = (name: string) => fields.get(name) ?? "";
  const message = field("MESSAGE");
  return {
    status: gatewayStatusOf(rawStatus.trim(), message),
    rawStatus: rawStatus.trim(),
    transId: field("TRANS_ID"),
    message,
    avs: field("AVS"),
    cvv2: field("CVV2"),
    authCode: field("AUTH_CODE"),
    mask: field("PAYMENT_ACCOUNT_MASK"),
    cardType: field("CARD_TYPE"),
    transType: field("TRANS_TYPE"),
    storedId: field("STORED_ID"),
  };
}

/** A transaction as the single-transaction query (stq) reports it. */
export type GatewayQueryTransaction = {
  transId: string;
  status: GatewayStatus;
  rawStatus: string;
  transType: string;
  paymentType: string;
  amount: string;
  orderId: string;
  invoiceId: string;
  message: string;
  mask: string;
  cardType: string;
  authCode: string;
  issueDate: string;
  masterId: string;
};

export type GatewayQueryAnswer =
  | { kind: "found"; transaction: GatewayQueryTransaction }
  | { kind: "not-found" }
  /** Not an answer to rely on: an error, a page from something in between, a shape we do not know. */
  | { kind: "unclear"; detail: string };

// BluePay documents stq's found record but no "no match" answer: this one is the sandbox's (its
// README says so). Only this exact answer counts as "nothing matched"; anything else is unclear.
const NO_MATCH_MESSAGE = /^no transactions? found\.?$/i;
const QUERY_STATUSES = new Set(["1", "0", "E"]);

/**
 * Reads an stq answer. Definitive only when HTTP 200 carries either a record (lower-case fields, at
 * least id and a known status) or the explicit empty result (MESSAGE "No transactions found" and no
 * other field). Everything else (STATUS=E, an HTML page, a 5xx, an unknown shape) is "unclear":
 * it says nothing about whether the charge happened.
 */
export function readGatewayQueryAnswer(httpStatus: number, body: string): GatewayQueryAnswer {
  const fields = parseFormEncoded(body);
  const field = (name: string) => fields.get(name) ?? "";
  const unclear = (detail: string): GatewayQueryAnswer => ({ kind: "unclear", detail });
  if (httpStatus !== 200)
    return unclear(`HTTP ${httpStatus}${field("MESSAGE") ? `: ${field("MESSAGE")}` : ""}`);
  const id = field("id").trim();
  const rawStatus = field("status").trim();
  if (id !== "") {
    if (!/^\d{1,20}$/.test(id) || !QUERY_STATUSES.has(rawStatus))
      return unclear("a record without a transaction id and status");
    const message = field("message");
    return {
      kind: "found",
      transaction: {
        transId: id,
        status: gatewayStatusOf(rawStatus, message),
        rawStatus,
        transType: field("trans_type"),
        paymentType: field("payment_type"),
        amount: field("amount"),
        orderId: field("order_id"),
        invoiceId: field("invoice_id"),
        message,
        mask: field("payment_account"),
        cardType: field("card_type"),
        authCode: field("auth_code"),
        issueDate: field("issue_date"),
        masterId: field("master_id"),
      },
    };
  }
  if (fields.size === 1 && NO_MATCH_MESSAGE.test(field("MESSAGE").trim())) return { kind: "not-found" };
  if (field("STATUS") === "E") return unclear(`refused: ${field("MESSAGE")}`);
  return unclear("not an stq answer");
}
