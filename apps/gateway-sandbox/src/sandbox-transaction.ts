import type { HashType } from "./sandbox-seal.js";

// What the sandbox records: its accounts and transactions (the book keeps them, the query reads them).

/** hashType: the one seal hash the account takes (its "Hash Type in APIs"); unset takes any. */
export type SandboxAccount = { accountId: string; secretKey: string; hashType?: HashType };
/** UPDATE only on a notification of change (origin REJECT, amount 0.00): the sandbox's choice. */
export type SandboxTransType = "SALE" | "AUTH" | "REFUND" | "VOID" | "UPDATE";
/** Where a record came from, as the reports' origin column names it (REJECT: from the bank). */
export type SandboxOrigin = "bp20post" | "bp10emu" | "REJECT";
/** What a REJECT record is (the sandbox's own field; "" on every other record). */
export type SandboxRejectKind = "" | "return" | "chargeback" | "chargeback-reversal" | "noc";
/** What became of the answer: sent, dropped (connection destroyed) or held (never answered). */
export type SandboxDelivery = "sent" | "dropped" | "held";

/** One recorded transaction. Only a mask and a keyed fingerprint of the payment account. */
export type SandboxTransaction = {
  transId: string;
  accountId: string;
  mode: "TEST";
  transType: SandboxTransType;
  paymentType: "CREDIT" | "ACH";
  amount: string;
  status: "1" | "0";
  message: string;
  /** The earlier TRANS_ID used: the stored card of a SALE/AUTH, the target of a REFUND/VOID. */
  masterId: string;
  orderId: string;
  invoiceId: string;
  name1: string;
  name2: string;
  mask: string;
  cardType: string;
  cardExpire: string;
  fingerprint: string;
  authCode: string;
  avs: string;
  cvv2: string;
  issuedAt: string;
  voided: boolean;
  /** Refunded so far (SALE only). */
  refunded: string;
  delivery: SandboxDelivery;
  /** The seal's hash type (TPS_HASH_TYPE, or the account's when absent). */
  hashType: string;
  /** Card-on-file fields as sent ("" when absent): F/S, C/M, the network transaction id. */
  storedIndicator: string;
  storedType: string;
  storedId: string;
  /** ACH entry class as sent ("" when absent: BluePay then takes PPD). */
  docType: string;
  customerIp: string;
  duplicateOverride: boolean;
  origin: SandboxOrigin;
  /** "YYYY-MM-DD HH:MM:SS" once settled, "" before. */
  settleDate: string;
  /** The settlement batch (12 digits, one per account and day), "" before settlement. */
  settlementId: string;
  rejectKind: SandboxRejectKind;
  /** R01.., C01.., or a card reason code like 4837 on a REJECT record; "" otherwise. */
  rejectCode: string;
  /** A notification of change's corrected data (the sandbox puts it in the reports' memo). */
  memo: string;
  /** The customer token used (CUST_TOKEN) or created (NEW_CUST_TOKEN, then tokenCreated), "" when none. */
  custToken: string;
  tokenCreated: boolean;
};

/** What records kept by an older sandbox lack (state files written before these fields). */
export const RECORD_DEFAULTS = {
  origin: "bp20post",
  settleDate: "",
  settlementId: "",
  rejectKind: "",
  rejectCode: "",
  memo: "",
  custToken: "",
  tokenCreated: false,
} as const satisfies Partial<SandboxTransaction>;

/**
 * What happened to the book, for Trans Notify: a new transaction (any origin, REJECT records
 * included) or an existing one settled.
 */
export type SandboxEvent = { kind: "transaction" | "settle"; transaction: SandboxTransaction };
