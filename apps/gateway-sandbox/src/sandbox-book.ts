import { createHash, randomBytes, randomInt } from "node:crypto";
import {
  cardTypeOf,
  checkExpiry,
  fingerprintOf,
  formatCents,
  isCardNumber,
  maskAch,
  maskDigits,
  parseAchAccount,
  parseAmountCents,
  testModeApproves,
} from "./card-checks.js";
import { encodeAnswer, refusalAnswer, refuse, type ProtocolAnswer } from "./protocol-answer.js";
import { QUERY_SEAL_FIELDS, queryAnswer } from "./sandbox-query.js";
import { UNSET_ACCOUNT_HASH_TYPE, checkSeal, type HashType } from "./sandbox-seal.js";
import type { SandboxAccount, SandboxDelivery, SandboxTransaction } from "./sandbox-transaction.js";

// The sandbox's book of transactions and the bp20post / stq rules it answers by, without HTTP.
// Answers follow BluePay: name=value pairs; STATUS 1 approved, 0 declined, E error (HTTP 400);
// duplicate scrubbing answers STATUS=1, MESSAGE=DUPLICATE with the original transaction's fields.
// Refused requests (STATUS=E) are answered, never recorded.

export type BookOptions = {
  accounts: readonly SandboxAccount[];
  duplicateWindowMs: number;
  now: () => Date;
  firstTransId?: string;
  /** Transactions kept from an earlier run (the state file). */
  transactions?: readonly SandboxTransaction[];
};

export type SandboxBook = {
  post: (fields: ReadonlyMap<string, string>, delivery: SandboxDelivery) => ProtocolAnswer;
  query: (fields: ReadonlyMap<string, string>) => ProtocolAnswer;
  transactions: () => SandboxTransaction[];
  addAccount: (account: SandboxAccount) => void;
};

/** The bp20post seal without TPS_DEF: these fields' values in this order ("" if absent). */
export const SEAL_FIELDS = ["ACCOUNT_ID", "TRANS_TYPE", "AMOUNT", "MASTER_ID", "NAME1", "PAYMENT_ACCOUNT"];
/** What a TPS_DEF for bp20post must name (the sandbox's rule): the account, the money and its source. */
const REQUIRED_SEAL_FIELDS = ["ACCOUNT_ID", "TRANS_TYPE", "AMOUNT", "MASTER_ID", "PAYMENT_ACCOUNT"];
const DOC_TYPES = ["PPD", "CCD", "WEB", "TEL", "ARC"];

// In TEST mode the first character of ADDR1 / ADDR2, when it is a valid code, is the AVS / CVV2 result.
const AVS_CODES = "ABCDEFGIMNPQRSWUXYZ12345678";
const CVV2_CODES = "_MNPSUXY";

function md5Hex(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex");
}

type PaymentSource = Pick<
  SandboxTransaction,
  "paymentType" | "mask" | "cardType" | "cardExpire" | "fingerprint" | "name1" | "name2"
>;

function sourceFrom(earlier: SandboxTransaction): PaymentSource {
  const { paymentType, mask, cardType, cardExpire, fingerprint, name1, name2 } = earlier;
  return { paymentType, mask, cardType, cardExpire, fingerprint, name1, name2 };
}

export function createSandboxBook(options: BookOptions): SandboxBook {
  const accounts = new Map(options.accounts.map((account) => [account.accountId, account]));
  const records = new Map<string, SandboxTransaction>();
  // Each account's charges by type, amount and payer, oldest first: a duplicate is looked up there,
  // not by scanning every record (a 10,000-customer card run made that the sandbox's main cost).
  const sameCharges = new Map<string, SandboxTransaction[]>();
  const chargeKey = (accountId: string, transType: string, amount: string, fingerprint: string) =>
    [accountId, transType, amount, fingerprint].join("\u0000");
  const keep = (transaction: SandboxTransaction) => {
    records.set(transaction.transId, transaction);
    const key = chargeKey(
      transaction.accountId,
      transaction.transType,
      transaction.amount,
      transaction.fingerprint,
    );
    const list = sameCharges.get(key);
    if (list) list.push(transaction);
    else sameCharges.set(key, [transaction]);
  };
  for (const transaction of options.transactions ?? []) keep({ ...transaction });
  // A new key each run: fingerprints only need to match within a run (duplicate scrubbing).
  const fingerprintKey = randomBytes(32);
  const highest = [...records.keys()].reduce((max, id) => (BigInt(id) > max ? BigInt(id) : max), 0n);
  // A random start without a state file, so a token kept from another run never names a new sale.
  let nextId = options.firstTransId
    ? BigInt(options.firstTransId)
    : highest > 0n
      ? highest + 1n
      : BigInt(randomInt(100_000_000_000, 900_000_000_000));

  const read = (fields: ReadonlyMap<string, string>) => (name: string) => (fields.get(name) ?? "").trim();

  function authenticate(
    fields: ReadonlyMap<string, string>,
    defaultFields: readonly string[],
    requiredFields: readonly string[],
  ): { accountId: string; hashType: HashType } {
    const accountId = read(fields)("ACCOUNT_ID");
    if (accountId === "") refuse("Missing ACCOUNT_ID");
    const account = accounts.get(accountId);
    if (account === undefined) refuse("Invalid ACCOUNT_ID");
    return { accountId, hashType: checkSeal(fields, account, { defaultFields, requiredFields }) };
  }

  function masterOf(accountId: string, masterId: string): SandboxTransaction {
    if (masterId === "") refuse("Missing MASTER_ID");
    const master = records.get(masterId);
    // Another account's transaction is as unknown as one that never was.
    if (!master || master.accountId !== accountId) refuse("Invalid MASTER_ID");
    return master;
  }

  function sourceOf(field: (name: string) => string, accountId: string): PaymentSource {
    const paymentType = field("PAYMENT_TYPE") || "CREDIT";
    if (paymentType !== "CREDIT" && paymentType !== "ACH") refuse("Invalid PAYMENT_TYPE");
    // With MASTER_ID, whatever is not sent comes from that earlier transaction (its account, names).
    const master = field("MASTER_ID") === "" ? undefined : masterOf(accountId, field("MASTER_ID"));
    const names = {
      name1: field("NAME1") || master?.name1 || "",
      name2: field("NAME2") || master?.name2 || "",
    };
    const account = field("PAYMENT_ACCOUNT");
    if (account === "") {
      if (!master) refuse("Missing PAYMENT_ACCOUNT");
      if (master.fingerprint === "") refuse("Invalid MASTER_ID");
      return { ...sourceFrom(master), ...names };
    }
    const fingerprint = fingerprintOf(fingerprintKey, account);
    if (paymentType === "ACH") {
      const ach = parseAchAccount(account) ?? refuse("Invalid PAYMENT_ACCOUNT");
      return { paymentType, mask: maskAch(ach), cardType: "ACH", cardExpire: "", fingerprint, ...names };
    }
    if (!isCardNumber(account)) refuse("Invalid PAYMENT_ACCOUNT");
    const cardExpire = field("CARD_EXPIRE");
    const expiry = checkExpiry(cardExpire, options.now());
    if (expiry === "invalid") refuse("Invalid CARD_EXPIRE");
    if (expiry === "expired") refuse("CARD_EXPIRE is in the past");
    const cvv2 = field("CARD_CVV2");
    if (cvv2 !== "" && !/^\d{3,4}$/.test(cvv2)) refuse("Invalid CARD_CVV2");
    const mask = maskDigits(account);
    return { paymentType, mask, cardType: cardTypeOf(account), cardExpire, fingerprint, ...names };
  }

  function record(
    field: (name: string) => string,
    entry: Pick<
      SandboxTransaction,
      "accountId" | "transType" | "amount" | "status" | "message" | "masterId"
    > &
      PaymentSource & { storedId?: string },
    delivery: SandboxDelivery,
  ): SandboxTransaction {
    const transId = String(nextId);
    nextId += 1n;
    const addr1 = field("ADDR1").charAt(0).toUpperCase();
    const addr2 = field("ADDR2").charAt(0).toUpperCase();
    const transaction: SandboxTransaction = {
      ...entry,
      transId,
      mode: "TEST",
      orderId: field("ORDER_ID"),
      invoiceId: field("INVOICE_ID"),
      authCode: entry.status === "1" ? md5Hex(transId).slice(0, 6).toUpperCase() : "",
      avs: addr1 !== "" && AVS_CODES.includes(addr1) ? addr1 : "_",
      cvv2: addr2 !== "" && CVV2_CODES.includes(addr2) ? addr2 : "_",
      issuedAt: options.now().toISOString(),
      voided: false,
      refunded: "0.00",
      delivery,
      hashType: field("TPS_HASH_TYPE").toUpperCase() || hashTypeOf(field("ACCOUNT_ID")),
      storedIndicator: field("STORED_INDICATOR"),
      storedType: field("STORED_TYPE"),
      storedId: entry.storedId ?? field("STORED_ID"),
      docType: field("DOC_TYPE"),
      customerIp: field("CUSTOMER_IP"),
      duplicateOverride: field("DUPLICATE_OVERRIDE") === "1",
    };
    keep(transaction);
    return transaction;
  }

  function answerFor(transaction: SandboxTransaction, message = transaction.message): ProtocolAnswer {
    return {
      httpStatus: 200,
      body: encodeAnswer([
        ["TRANS_ID", transaction.transId],
        ["STATUS", transaction.status],
        ["AVS", transaction.avs],
        ["CVV2", transaction.cvv2],
        ["MESSAGE", message],
        ["AUTH_CODE", transaction.authCode],
        ["PAYMENT_ACCOUNT_MASK", transaction.mask],
        ["CARD_TYPE", transaction.cardType],
        ["TRANS_TYPE", transaction.transType],
        ["REBID", ""],
        ...(transaction.storedId ? ([["STORED_ID", transaction.storedId]] as const) : []),
      ]),
    };
  }

  function hashTypeOf(accountId: string): string {
    return accounts.get(accountId)?.hashType ?? UNSET_ACCOUNT_HASH_TYPE;
  }

  /**
   * Card-on-file fields: STORED_INDICATOR F (first) or S (subsequent, with the STORED_ID the first
   * answer gave), STORED_TYPE C or M. An approved first use answers a new network transaction id
   * (the sandbox's own "TESTID..." form); a later one answers the id it was sent.
   */
  function storedIdOf(field: (name: string) => string, paymentType: string): string {
    const indicator = field("STORED_INDICATOR");
    const type = field("STORED_TYPE");
    if (indicator === "" && type === "" && field("STORED_ID") === "") return "";
    if (paymentType !== "CREDIT") refuse("STORED_INDICATOR is for cards");
    if (indicator !== "F" && indicator !== "S") refuse("Invalid STORED_INDICATOR");
    if (type !== "C" && type !== "M") refuse("Invalid STORED_TYPE");
    if (indicator === "S") return field("STORED_ID");
    return `TESTID${String(nextId).slice(-9)}`;
  }

  function findDuplicate(accountId: string, transType: string, amount: string, fingerprint: string) {
    const since = options.now().getTime() - options.duplicateWindowMs;
    return [...(sameCharges.get(chargeKey(accountId, transType, amount, fingerprint)) ?? [])]
      .reverse()
      .find((earlier) => earlier.status === "1" && Date.parse(earlier.issuedAt) >= since);
  }

  function charge(
    field: (name: string) => string,
    accountId: string,
    transType: "SALE" | "AUTH",
    delivery: SandboxDelivery,
  ) {
    const cents = parseAmountCents(field("AMOUNT")) ?? refuse("Invalid AMOUNT");
    if (cents === 0n && transType === "SALE") refuse("Invalid AMOUNT");
    const source = sourceOf(field, accountId);
    const storedId = storedIdOf(field, source.paymentType);
    if (source.paymentType === "ACH" && field("DOC_TYPE") !== "" && !DOC_TYPES.includes(field("DOC_TYPE")))
      refuse("Invalid DOC_TYPE");
    const amount = formatCents(cents);
    if (field("DUPLICATE_OVERRIDE") !== "1") {
      const original = findDuplicate(accountId, transType, amount, source.fingerprint);
      if (original) return answerFor(original, "DUPLICATE");
    }
    // A 0.00 AUTH stores the account for later MASTER_ID use, as BluePay answers it.
    const [status, message] =
      cents === 0n
        ? (["1", "INFORMATION STORED"] as const)
        : testModeApproves(cents)
          ? (["1", transType === "SALE" ? "Approved Sale" : "Approved Auth"] as const)
          : (["0", "Declined"] as const);
    const entry = { accountId, transType, amount, status, message, masterId: field("MASTER_ID"), ...source };
    return answerFor(
      record(field, { ...entry, storedId: status === "1" ? storedId : field("STORED_ID") }, delivery),
    );
  }

  function refund(field: (name: string) => string, accountId: string, delivery: SandboxDelivery) {
    const master = masterOf(accountId, field("MASTER_ID"));
    if (master.transType !== "SALE" || master.status !== "1")
      refuse("MASTER_ID is not a sale that can be refunded");
    if (master.voided) refuse("MASTER_ID was voided");
    const left = (parseAmountCents(master.amount) ?? 0n) - (parseAmountCents(master.refunded) ?? 0n);
    if (left <= 0n) refuse("MASTER_ID is fully refunded");
    const asked = field("AMOUNT");
    const cents = asked === "" ? left : (parseAmountCents(asked) ?? refuse("Invalid AMOUNT"));
    if (cents === 0n) refuse("Invalid AMOUNT");
    if (cents > left) refuse(`AMOUNT is more than the ${formatCents(left)} left to refund`);
    master.refunded = formatCents((parseAmountCents(master.refunded) ?? 0n) + cents);
    const entry = {
      accountId,
      transType: "REFUND" as const,
      amount: formatCents(cents),
      masterId: master.transId,
    };
    const outcome = { status: "1" as const, message: "Approved Refund" };
    return answerFor(record(field, { ...entry, ...outcome, ...sourceFrom(master) }, delivery));
  }

  function voidTransaction(field: (name: string) => string, accountId: string, delivery: SandboxDelivery) {
    const master = masterOf(accountId, field("MASTER_ID"));
    if (master.status !== "1" || master.transType === "VOID") refuse("MASTER_ID cannot be voided");
    if (master.voided) refuse("MASTER_ID was voided already");
    if (master.refunded !== "0.00") refuse("MASTER_ID has refunds; void those first");
    master.voided = true;
    const target = master.transType === "REFUND" ? records.get(master.masterId) : undefined;
    if (target) {
      const refunded = (parseAmountCents(target.refunded) ?? 0n) - (parseAmountCents(master.amount) ?? 0n);
      target.refunded = formatCents(refunded > 0n ? refunded : 0n);
    }
    const entry = { accountId, transType: "VOID" as const, amount: master.amount, masterId: master.transId };
    const outcome = { status: "1" as const, message: "Approved Void" };
    return answerFor(record(field, { ...entry, ...outcome, ...sourceFrom(master) }, delivery));
  }

  function post(fields: ReadonlyMap<string, string>, delivery: SandboxDelivery): ProtocolAnswer {
    try {
      const field = read(fields);
      const { accountId } = authenticate(fields, SEAL_FIELDS, REQUIRED_SEAL_FIELDS);
      const mode = field("MODE") || "TEST";
      if (mode === "LIVE") refuse("MODE LIVE is not accepted by this sandbox; send MODE=TEST");
      if (mode !== "TEST") refuse("Invalid MODE");
      const transType = field("TRANS_TYPE") || "SALE";
      if (transType === "SALE" || transType === "AUTH") return charge(field, accountId, transType, delivery);
      if (transType === "REFUND") return refund(field, accountId, delivery);
      if (transType === "VOID") return voidTransaction(field, accountId, delivery);
      return refuse(`TRANS_TYPE ${transType} is not supported by this sandbox`);
    } catch (error) {
      return refusalAnswer(error);
    }
  }

  return {
    post,
    query: (fields) => {
      try {
        const { accountId } = authenticate(fields, QUERY_SEAL_FIELDS, QUERY_SEAL_FIELDS);
        return queryAnswer(fields, accountId, [...records.values()]);
      } catch (error) {
        return refusalAnswer(error);
      }
    },
    transactions: () => [...records.values()].map((transaction) => ({ ...transaction })),
    addAccount: (account) => {
      if (account.accountId.trim() === "" || account.secretKey === "")
        throw new Error("accountId and secretKey are required");
      accounts.set(account.accountId.trim(), { ...account, accountId: account.accountId.trim() });
    },
  };
}
