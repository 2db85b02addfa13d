import type { HashType } from "./sandbox-seal.js";

// What the sandbox records: its accounts and transactions (the book keeps them, the query reads them).

/** hashType: the one seal hash the account takes (its "Hash Type in APIs"); unset takes any. */
export type SandboxAccount = { accountId: string; secretKey: string; hashType?: HashType };
export type SandboxTransType = "SALE" | "AUTH" | "REFUND" | "VOID";
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
};
