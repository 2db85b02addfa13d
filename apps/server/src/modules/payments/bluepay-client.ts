import {
  DEFAULT_GATEWAY_HASH_TYPE,
  isGatewayHashType,
  isValidDecimalString,
  parseFormEncoded,
  readGatewayAnswer,
  unusableAnswerReason,
  readGatewayQueryAnswer,
  toAmount,
  type GatewayAnswer,
  type GatewayHashType,
  type GatewayQueryAnswer,
} from "@cyclebill/domain";
import { QUERY_SEAL_FIELDS, SEAL_FIELDS, sealFields, sealOf } from "./gateway-seal.js";

// The BluePay 2.0 adapter: builds a sealed bp20post request, sends it as a form-encoded POST and
// types the answer. A call that ends without a readable answer is its own outcome, "no-answer":
// the charge may or may not have happened, so the caller asks the gateway (queryGateway, by the
// ORDER_ID it sent) instead of charging again. Nothing here logs; redactFields is for callers that do.

/** hashType: the seal the account expects (TPS_HASH_TYPE); HMAC_SHA512 when not given. */
export type BluepayCredentials = { accountId: string; secretKey: string; hashType?: GatewayHashType };
export type BluepayMode = "TEST" | "LIVE";
export type BluepayTransType = "SALE" | "AUTH" | "REFUND" | "VOID";

/** A card or bank account sent in full; a stored one travels as masterId instead. */
export type BluepayPaymentAccount =
  | { kind: "card"; number: string; expire: string; cvv2?: string }
  | { kind: "ach"; accountType: "C" | "S"; routing: string; account: string };

export type BluepayCustomer = Partial<
  Record<
    "name1" | "name2" | "addr1" | "addr2" | "city" | "state" | "zip" | "country" | "phone" | "email",
    string
  >
>;

export type BluepayRequest = {
  transType: BluepayTransType;
  mode: BluepayMode;
  /** Dollars as a decimal string ("12.50"). SALE/AUTH need it (a 0 AUTH stores the account); a REFUND without it refunds the rest. */
  amount?: string;
  /** SALE/AUTH: the account to charge, unless masterId names a stored one. */
  account?: BluepayPaymentAccount;
  /** The TRANS_ID of an earlier transaction: the stored card of a SALE/AUTH, the target of a REFUND/VOID. */
  masterId?: string;
  customer?: BluepayCustomer;
  /** Ours, unique per attempt: what queryGateway finds a lost answer by. */
  orderId?: string;
  invoiceId?: string;
  /** Turns BluePay's duplicate scrubbing off for this request (a deliberate second identical charge). */
  duplicateOverride?: boolean;
  /**
   * A card-on-file charge: F the first (the card is being stored), S a later one with the network
   * transaction id the first answer gave; C customer-initiated, M merchant-initiated.
   */
  stored?: { indicator: "F" | "S"; type: "C" | "M"; id?: string };
  /** ACH entry class: WEB (the public page), TEL (staff by phone), PPD (signed agreement), CCD (a company). */
  docType?: "WEB" | "TEL" | "PPD" | "CCD";
  /** What masterId names when no account is sent: ACH must say so on every call (stored sales, refunds). */
  paymentType?: "CREDIT" | "ACH";
  /** The payer's address, for the gateway's fraud screening (public page charges). */
  customerIp?: string;
};

/** The form fields of one request, TAMPER_PROOF_SEAL included. */
export type BluepayFields = Record<string, string>;

/**
 * The answer's shape, as BluePay's current SDKs ask for it: every 2021 "stored credentials" SDK
 * release sends RESPONSEVERSION 8 (STORED_ID comes back from 8, BP_STAMP from 3), and VERSION 3 asks
 * bp20post for AUTH_CODE, the account mask and the card type (without a version only TRANS_ID,
 * STATUS, AVS, CVV2, MESSAGE and REBID come back).
 */
export const RESPONSE_VERSION = "8";
export const REQUEST_VERSION = "3";

const CUSTOMER_FIELDS = {
  name1: "NAME1",
  name2: "NAME2",
  addr1: "ADDR1",
  addr2: "ADDR2",
  city: "CITY",
  state: "STATE",
  zip: "ZIP",
  country: "COUNTRY",
  phone: "PHONE",
  email: "EMAIL",
} as const;

/** AMOUNT as the gateway takes it: "12.50". Throws on what no caller should send. */
function gatewayAmount(amount: string, allowZero: boolean): string {
  if (!isValidDecimalString(amount, { allowNegative: false, maxPlaces: 2 }))
    throw new Error(`amount must be a decimal string with at most 2 places, got "${amount}"`);
  const formatted = toAmount(amount);
  if (formatted === "0.00" && !allowZero) throw new Error("amount must be more than 0.00");
  return formatted;
}

/** PAYMENT_TYPE and the account; with only a MASTER_ID, PAYMENT_TYPE=ACH still goes for a bank account. */
function accountFields(request: Pick<BluepayRequest, "account" | "paymentType">): BluepayFields {
  const account = request.account;
  if (!account) return request.paymentType === "ACH" ? { PAYMENT_TYPE: "ACH" } : {};
  if (account.kind === "ach")
    return {
      PAYMENT_TYPE: "ACH",
      PAYMENT_ACCOUNT: `${account.accountType}:${account.routing}:${account.account}`,
    };
  return {
    PAYMENT_TYPE: "CREDIT",
    PAYMENT_ACCOUNT: account.number,
    CARD_EXPIRE: account.expire,
    ...(account.cvv2 ? { CARD_CVV2: account.cvv2 } : {}),
  };
}

/** The sealed fields of a request; empty values are left out (the seal counts them as ""). */
export function buildRequest(credentials: BluepayCredentials, request: BluepayRequest): BluepayFields {
  const charge = request.transType === "SALE" || request.transType === "AUTH";
  if (charge && !request.account && !request.masterId)
    throw new Error(`${request.transType} needs an account or a masterId`);
  if (!charge && !request.masterId) throw new Error(`${request.transType} needs the masterId it applies to`);
  if (charge && request.amount === undefined) throw new Error(`${request.transType} needs an amount`);
  const fields: BluepayFields = {
    ACCOUNT_ID: credentials.accountId,
    TRANS_TYPE: request.transType,
    MODE: request.mode,
    VERSION: REQUEST_VERSION,
    RESPONSEVERSION: RESPONSE_VERSION,
    ...(request.amount !== undefined
      ? { AMOUNT: gatewayAmount(request.amount, request.transType === "AUTH") }
      : {}),
    ...(request.masterId ? { MASTER_ID: request.masterId } : {}),
    ...accountFields(request),
    ...(request.orderId ? { ORDER_ID: request.orderId } : {}),
    ...(request.invoiceId ? { INVOICE_ID: request.invoiceId } : {}),
    ...(request.duplicateOverride ? { DUPLICATE_OVERRIDE: "1" } : {}),
    ...(request.stored
      ? {
          STORED_INDICATOR: request.stored.indicator,
          STORED_TYPE: request.stored.type,
          ...(request.stored.id ? { STORED_ID: request.stored.id } : {}),
        }
      : {}),
    ...(request.docType ? { DOC_TYPE: request.docType } : {}),
    ...(request.customerIp ? { CUSTOMER_IP: request.customerIp } : {}),
  };
  for (const [key, name] of Object.entries(CUSTOMER_FIELDS)) {
    const value = request.customer?.[key as keyof BluepayCustomer]?.trim();
    if (value) fields[name] = value;
  }
  return sealFields(credentials.secretKey, hashTypeOf(credentials), fields, SEAL_FIELDS);
}

function hashTypeOf(credentials: BluepayCredentials): GatewayHashType {
  return credentials.hashType ?? DEFAULT_GATEWAY_HASH_TYPE;
}

/** The fields with the account masked and the CVV and seal gone: the only form fit for a log. */
export function redactFields(fields: Readonly<BluepayFields>): BluepayFields {
  const { CARD_CVV2: _cvv, TAMPER_PROOF_SEAL: _seal, PAYMENT_ACCOUNT: account, ...rest } = fields;
  if (account === undefined) return rest;
  return { ...rest, PAYMENT_ACCOUNT: "x".repeat(Math.max(0, account.length - 4)) + account.slice(-4) };
}

/** Why a call ended without an answer; maybeProcessed is false only when the request never left. */
export type NoAnswer = {
  status: "no-answer";
  /** unusable: STATUS=1 without TRANS_ID, or an undocumented STATUS; bad-stamp: BP_STAMP did not verify. */
  reason: "timeout" | "connection-lost" | "refused" | "unreadable" | "unusable" | "bad-stamp";
  maybeProcessed: boolean;
  detail: string;
};

export type GatewayCallResult = GatewayAnswer | NoAnswer;
/** secretKey/hashType: the account's, to verify the answer's BP_STAMP where one comes back. */
export type GatewayCallOptions = { timeoutMs: number; secretKey?: string; hashType?: GatewayHashType };

// Errors whose request never reached a gateway: nothing can have been charged.
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

function noAnswerFrom(error: unknown): NoAnswer {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
    return { status: "no-answer", reason: "timeout", maybeProcessed: true, detail: "no answer in time" };
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === "string" ? cause.code : "";
  const detail = [code, typeof cause?.message === "string" ? cause.message : String(error)]
    .filter(Boolean)
    .join(": ");
  if (NOT_SENT_CODES.has(code))
    return { status: "no-answer", reason: "refused", maybeProcessed: false, detail };
  return { status: "no-answer", reason: "connection-lost", maybeProcessed: true, detail };
}

async function postForm(
  url: string,
  fields: Readonly<BluepayFields>,
  options: GatewayCallOptions,
): Promise<{ httpStatus: number; body: string } | NoAnswer> {
  try {
    // One signal for the whole exchange: a gateway that sends headers and then stalls times out too.
    const signal = AbortSignal.timeout(options.timeoutMs);
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
      signal,
    });
    return { httpStatus: response.status, body: await response.text() };
  } catch (error) {
    return noAnswerFrom(error);
  }
}

/**
 * Whether the answer's own seal holds: BP_STAMP over the values of the fields BP_STAMP_DEF names
 * (space-separated, concatenated in that order), hashed as its TPS_HASH_TYPE says (else the
 * account's), compared case-blind (BluePay's SDKs compare upper-case hex). No BP_STAMP: nothing to check.
 */
export function answerStampHolds(body: string, secretKey: string, fallback: GatewayHashType): boolean {
  const fields = parseFormEncoded(body);
  const stamp = fields.get("BP_STAMP")?.trim() ?? "";
  if (stamp === "") return true;
  const names = (fields.get("BP_STAMP_DEF") ?? "").split(" ").filter(Boolean);
  const hashType = fields.get("TPS_HASH_TYPE")?.trim() || fallback;
  if (names.length === 0 || !isGatewayHashType(hashType)) return false;
  const values = Object.fromEntries(names.map((name) => [name, fields.get(name) ?? ""]));
  return sealOf(secretKey, hashType, values, names).toUpperCase() === stamp.toUpperCase();
}

/**
 * Sends one bp20post request. BluePay answers declines and errors with HTTP 4xx too, so the body
 * decides, never the HTTP status. No usable answer (no STATUS, STATUS=1 without TRANS_ID, a STATUS
 * outside 1/0/E, a BP_STAMP that does not verify) is "no-answer", maybe processed: looked up, never retried.
 */
export async function callGateway(
  url: string,
  fields: Readonly<BluepayFields>,
  options: GatewayCallOptions,
): Promise<GatewayCallResult> {
  const sent = await postForm(url, fields, options);
  if ("status" in sent) return sent;
  const answer = readGatewayAnswer(sent.body);
  if (!answer)
    return {
      status: "no-answer",
      reason: "unreadable",
      maybeProcessed: true,
      detail: `HTTP ${sent.httpStatus} without a STATUS field`,
    };
  const unusable = unusableAnswerReason(answer);
  if (unusable) return { status: "no-answer", reason: "unusable", maybeProcessed: true, detail: unusable };
  if (
    options.secretKey !== undefined &&
    !answerStampHolds(sent.body, options.secretKey, options.hashType ?? DEFAULT_GATEWAY_HASH_TYPE)
  )
    return {
      status: "no-answer",
      reason: "bad-stamp",
      maybeProcessed: true,
      detail: "the answer's BP_STAMP did not match its fields",
    };
  return answer;
}

/** The options of a call for this account: its time-out, and its key to verify BP_STAMP. */
export function callOptionsOf(credentials: BluepayCredentials, timeoutMs: number): GatewayCallOptions {
  return { timeoutMs, secretKey: credentials.secretKey, hashType: hashTypeOf(credentials) };
}

/** BluePay's single-transaction query lives beside bp20post: .../interfaces/stq. */
export function queryUrlOf(bp20postUrl: string): string {
  return new URL("stq", bp20postUrl).toString();
}

/**
 * Report dates (YYYY-MM-DD, UTC) for asking about an attempt made at `attempt`, asked at `now`
 * (both from the app's clock): from the day before the attempt to the day after the later of the
 * two, so a call near midnight, or one the gateway dated a little later, is still in the window.
 */
export function queryWindowOf(attempt: Date, now: Date): { from: string; to: string } {
  const day = 86_400_000;
  const at = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const last = Math.max(attempt.getTime(), now.getTime());
  return { from: at(attempt.getTime() - day), to: at(last + day) };
}

export type GatewayQuery = { mode: BluepayMode; orderId: string; from: string; to: string };

/**
 * Asks whether a transaction with this ORDER_ID exists (BluePay's stq; the sandbox answers the same
 * way): the newest match, not found, refused, or no answer.
 */
export async function queryGateway(
  bp20postUrl: string,
  credentials: BluepayCredentials,
  query: GatewayQuery,
  options: GatewayCallOptions,
): Promise<GatewayQueryAnswer | NoAnswer> {
  const fields: BluepayFields = {
    ACCOUNT_ID: credentials.accountId,
    MODE: query.mode,
    REPORT_START_DATE: query.from,
    REPORT_END_DATE: query.to,
    order_id: query.orderId,
    EXCLUDE_ERRORS: "1",
  };
  const sealed = sealFields(credentials.secretKey, hashTypeOf(credentials), fields, QUERY_SEAL_FIELDS);
  const sent = await postForm(queryUrlOf(bp20postUrl), sealed, options);
  if ("status" in sent) return sent;
  return readGatewayQueryAnswer(sent.httpStatus, sent.body);
}
