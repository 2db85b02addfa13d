import { createHash, randomBytes, randomInt } from "node:crypto";
import { formatCents, parseAmountCents, testModeApproves } from "./card-checks.js";
import { bp20postAnswer, responseVersionOf } from "./bp20post-answer.js";
import { sourceFrom, sourceOf, storedIdOf, type Field, type PaymentSource } from "./payment-source.js";
import { createCustomerTokens, retentionOver } from "./stored-sources.js";
import { Refusal, refusalAnswer, refuse, type ProtocolAnswer } from "./protocol-answer.js";
import { QUERY_SEAL_FIELDS, queryAnswer } from "./sandbox-query.js";
import { UNSET_ACCOUNT_HASH_TYPE, checkSeal, type HashType, type SealRule } from "./sandbox-seal.js";
import {
  RECORD_DEFAULTS,
  type SandboxAccount,
  type SandboxDelivery,
  type SandboxEvent,
  type SandboxOrigin,
  type SandboxTransaction,
} from "./sandbox-transaction.js";

// The sandbox's book of transactions and the bp20post / stq rules it answers by, without HTTP.
// Answers follow BluePay: name=value pairs; STATUS 1 approved, 0 declined, E error (HTTP 400);
// duplicate scrubbing answers MESSAGE=DUPLICATE with the original transaction's fields, on approved
// and declined originals alike (BluePay_MESSAGE_values.txt). Refused requests (STATUS=E) are
// answered, never recorded.

export type BookOptions = {
  accounts: readonly SandboxAccount[];
  duplicateWindowMs: number;
  now: () => Date;
  firstTransId?: string;
  /** Transactions kept from an earlier run (the state file). */
  transactions?: readonly SandboxTransaction[];
  /** Told of every new record and settlement (Trans Notify). */
  onEvent?: (event: SandboxEvent) => void;
};

/** What a charge request came to: its record and the MESSAGE it answers, or a refusal. */
export type Processed =
  | { kind: "done"; transaction: SandboxTransaction; message: string; hashType: HashType; secretKey: string }
  | { kind: "refused"; message: string };

export type ProcessOptions = {
  origin: Exclude<SandboxOrigin, "REJECT">;
  /** The fields the seal is checked over (bp10emu's own names) and its rule; bp20post's by default. */
  sealFields?: ReadonlyMap<string, string>;
  sealRule?: SealRule;
};

/** The book's records for the controls and reports: live objects, changed in place. */
export type BookStore = {
  get: (transId: string) => SandboxTransaction | undefined;
  all: () => SandboxTransaction[];
  add: (entry: Omit<SandboxTransaction, "transId">) => SandboxTransaction;
  account: (accountId: string) => SandboxAccount | undefined;
  emit: (event: SandboxEvent) => void;
  now: () => Date;
};

export type SandboxBook = {
  post: (
    fields: ReadonlyMap<string, string>,
    delivery: SandboxDelivery,
  ) => { answer: ProtocolAnswer; transaction?: SandboxTransaction };
  process: (
    fields: ReadonlyMap<string, string>,
    delivery: SandboxDelivery,
    options: ProcessOptions,
  ) => Processed;
  query: (fields: ReadonlyMap<string, string>, hidden?: (t: SandboxTransaction) => boolean) => ProtocolAnswer;
  /** Checks a report request's account and seal (refuses as the gateway does). */
  authenticateReport: (fields: ReadonlyMap<string, string>) => string;
  transactions: () => SandboxTransaction[];
  addAccount: (account: SandboxAccount) => void;
  store: BookStore;
};

/** The bp20post seal without TPS_DEF: these fields' values in this order ("" if absent). */
export const SEAL_FIELDS = ["ACCOUNT_ID", "TRANS_TYPE", "AMOUNT", "MASTER_ID", "NAME1", "PAYMENT_ACCOUNT"];
/** What a TPS_DEF for bp20post must name (the sandbox's rule): the account, the money and its source. */
const REQUIRED_SEAL_FIELDS = ["ACCOUNT_ID", "TRANS_TYPE", "AMOUNT", "MASTER_ID", "PAYMENT_ACCOUNT"];
const BP20POST_SEAL: SealRule = { defaultFields: SEAL_FIELDS, requiredFields: REQUIRED_SEAL_FIELDS };
const DOC_TYPES = ["PPD", "CCD", "WEB", "TEL", "ARC"];

// In TEST mode the first character of ADDR1 / ADDR2, when it is a valid code, is the AVS / CVV2 result.
const AVS_CODES = "ABCDEFGIMNPQRSWUXYZ12345678";
const CVV2_CODES = "_MNPSUXY";

function md5Hex(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex");
}

type Entry = Pick<
  SandboxTransaction,
  "accountId" | "transType" | "amount" | "status" | "message" | "masterId"
> &
  PaymentSource & { storedId?: string };

export function createSandboxBook(options: BookOptions): SandboxBook {
  const accounts = new Map(options.accounts.map((account) => [account.accountId, account]));
  const records = new Map<string, SandboxTransaction>();
  const emit = (event: SandboxEvent) => options.onEvent?.(event);
  // Each account's charges by type, amount and payer, oldest first: a duplicate is looked up there,
  // not by scanning every record (a 10,000-customer card run made that the sandbox's main cost).
  const sameCharges = new Map<string, SandboxTransaction[]>();
  const chargeKey = (accountId: string, transType: string, amount: string, fingerprint: string) =>
    [accountId, transType, amount, fingerprint].join("\u0000");
  const keep = (transaction: SandboxTransaction) => {
    records.set(transaction.transId, transaction);
    const { accountId, transType, amount, fingerprint } = transaction;
    const key = chargeKey(accountId, transType, amount, fingerprint);
    const list = sameCharges.get(key);
    if (list) list.push(transaction);
    else sameCharges.set(key, [transaction]);
  };
  for (const transaction of options.transactions ?? []) keep({ ...RECORD_DEFAULTS, ...transaction });
  const tokens = createCustomerTokens(records.values());
  // A new key each run: fingerprints only need to match within a run (duplicate scrubbing).
  const fingerprintKey = randomBytes(32);
  const highest = [...records.keys()].reduce((max, id) => (BigInt(id) > max ? BigInt(id) : max), 0n);
  // A random start without a state file, so a token kept from another run never names a new sale.
  let nextId = options.firstTransId
    ? BigInt(options.firstTransId)
    : highest > 0n
      ? highest + 1n
      : BigInt(randomInt(100_000_000_000, 900_000_000_000));
  const takeId = () => {
    const transId = String(nextId);
    nextId += 1n;
    return transId;
  };

  const read = (fields: ReadonlyMap<string, string>) => (name: string) => (fields.get(name) ?? "").trim();

  function authenticate(fields: ReadonlyMap<string, string>, rule: SealRule, accountField = "ACCOUNT_ID") {
    const accountId = read(fields)(accountField);
    if (accountId === "") refuse(`Missing ${accountField}`);
    const account = accounts.get(accountId);
    if (account === undefined) refuse("Unable to locate account");
    return { accountId, secretKey: account.secretKey, hashType: checkSeal(fields, account, rule) };
  }

  function masterOf(accountId: string, masterId: string): SandboxTransaction {
    if (masterId === "") refuse("Missing MASTER_ID");
    const master = records.get(masterId);
    // Another account's transaction is as unknown as one that never was.
    if (!master || master.accountId !== accountId || master.origin === "REJECT") refuse("Invalid MASTER_ID");
    return master;
  }

  function record(field: Field, entry: Entry, delivery: SandboxDelivery, extra: Partial<SandboxTransaction>) {
    const transId = takeId();
    const addr1 = field("ADDR1").charAt(0).toUpperCase();
    const addr2 = field("ADDR2").charAt(0).toUpperCase();
    const transaction: SandboxTransaction = {
      ...RECORD_DEFAULTS,
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
      ...extra,
    };
    keep(transaction);
    emit({ kind: "transaction", transaction });
    return transaction;
  }

  function hashTypeOf(accountId: string): string {
    return accounts.get(accountId)?.hashType ?? UNSET_ACCOUNT_HASH_TYPE;
  }

  function findDuplicate(accountId: string, transType: string, amount: string, fingerprint: string) {
    const since = options.now().getTime() - options.duplicateWindowMs;
    return [...(sameCharges.get(chargeKey(accountId, transType, amount, fingerprint)) ?? [])]
      .reverse()
      .find((earlier) => Date.parse(earlier.issuedAt) >= since);
  }

  type Made = { transaction: SandboxTransaction; message: string };
  type Maker = (field: Field, accountId: string, delivery: SandboxDelivery, origin: SandboxOrigin) => Made;

  const charge =
    (transType: "SALE" | "AUTH"): Maker =>
    (field, accountId, delivery, origin) => {
      const cents = parseAmountCents(field("AMOUNT")) ?? refuse("Invalid AMOUNT");
      if (cents === 0n && transType === "SALE") refuse("Invalid AMOUNT");
      const master = storedSourceOf(field, accountId);
      const newToken = field("NEW_CUST_TOKEN");
      if (newToken !== "" && tokens.find(accountId, newToken)) refuse("Customer Tokens must be unique");
      const source = sourceOf(field, master, fingerprintKey, options.now());
      // BluePay stores an ACH account without an AUTH (MESSAGE values: "<TRANS TYPE> not supported for ACH").
      if (source.paymentType === "ACH" && transType === "AUTH") refuse("AUTH not supported for ACH");
      const storedId = storedIdOf(field, source.paymentType, nextId);
      if (source.paymentType === "ACH" && field("DOC_TYPE") !== "" && !DOC_TYPES.includes(field("DOC_TYPE")))
        refuse("Invalid DOC_TYPE");
      const amount = formatCents(cents);
      if (field("DUPLICATE_OVERRIDE") !== "1") {
        const original = findDuplicate(accountId, transType, amount, source.fingerprint);
        if (original) return { transaction: original, message: "DUPLICATE" };
      }
      // A 0.00 AUTH stores the card for later MASTER_ID use, as BluePay answers it.
      const [status, message] =
        cents === 0n
          ? (["1", "INFORMATION STORED"] as const)
          : testModeApproves(cents)
            ? (["1", transType === "SALE" ? "Approved Sale" : "Approved Auth"] as const)
            : (["0", "Declined"] as const);
      const entry = {
        accountId,
        transType,
        amount,
        status,
        message,
        masterId: field("MASTER_ID"),
        ...source,
      };
      const kept = { ...entry, storedId: status === "1" ? storedId : field("STORED_ID") };
      const token = status === "1" && newToken !== "" ? newToken : field("CUST_TOKEN");
      const created = status === "1" && newToken !== "";
      const transaction = record(field, kept, delivery, { origin, custToken: token, tokenCreated: created });
      tokens.register(transaction);
      return { transaction, message };
    };

  /** The earlier transaction a charge takes the payer's account from: MASTER_ID, else CUST_TOKEN. */
  function storedSourceOf(field: Field, accountId: string): SandboxTransaction | undefined {
    if (field("MASTER_ID") !== "") {
      const master = masterOf(accountId, field("MASTER_ID"));
      // Past BluePay's retention the card data is gone (MESSAGE values: "Unable to locate tokenized transaction").
      if (field("PAYMENT_ACCOUNT") === "" && retentionOver(master, options.now()))
        refuse("Error reading master transaction");
      return master;
    }
    if (field("CUST_TOKEN") === "") return undefined;
    return tokens.find(accountId, field("CUST_TOKEN")) ?? refuse("Invalid CUST_TOKEN");
  }

  const refund: Maker = (field, accountId, delivery, origin) => {
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
    const transaction = record(field, { ...entry, ...outcome, ...sourceFrom(master) }, delivery, { origin });
    return { transaction, message: outcome.message };
  };

  const voidTransaction: Maker = (field, accountId, delivery, origin) => {
    const master = masterOf(accountId, field("MASTER_ID"));
    if (master.status !== "1" || master.transType === "VOID") refuse("MASTER_ID cannot be voided");
    if (master.voided) refuse("MASTER_ID was voided already");
    if (master.refunded !== "0.00") refuse("MASTER_ID has refunds; void those first");
    // BluePay_MESSAGE_values.txt: "Cannot <TRANS TYPE> a settled transaction."
    if (master.settleDate !== "") refuse("Cannot VOID a settled transaction.");
    master.voided = true;
    const target = master.transType === "REFUND" ? records.get(master.masterId) : undefined;
    if (target) {
      const refunded = (parseAmountCents(target.refunded) ?? 0n) - (parseAmountCents(master.amount) ?? 0n);
      target.refunded = formatCents(refunded > 0n ? refunded : 0n);
    }
    const entry = { accountId, transType: "VOID" as const, amount: master.amount, masterId: master.transId };
    const outcome = { status: "1" as const, message: "Approved Void" };
    const transaction = record(field, { ...entry, ...outcome, ...sourceFrom(master) }, delivery, { origin });
    return { transaction, message: outcome.message };
  };

  const MAKERS: Record<string, Maker> = {
    SALE: charge("SALE"),
    AUTH: charge("AUTH"),
    REFUND: refund,
    VOID: voidTransaction,
  };

  function process(
    fields: ReadonlyMap<string, string>,
    delivery: SandboxDelivery,
    processOptions: ProcessOptions,
  ): Processed {
    try {
      const field = read(fields);
      const rule = processOptions.sealRule ?? BP20POST_SEAL;
      const sealFields = processOptions.sealFields ?? fields;
      const accountField = processOptions.origin === "bp10emu" ? "MERCHANT" : "ACCOUNT_ID";
      const { accountId, secretKey, hashType } = authenticate(sealFields, rule, accountField);
      const mode = field("MODE") || "TEST";
      if (mode === "LIVE") refuse("MODE LIVE is not accepted by this sandbox; send MODE=TEST");
      if (mode !== "TEST") refuse("Invalid MODE");
      const transType = field("TRANS_TYPE") || "SALE";
      const maker = MAKERS[transType] ?? refuse(`TRANS_TYPE ${transType} is not supported by this sandbox`);
      const made = maker(field, accountId, delivery, processOptions.origin);
      return { kind: "done", ...made, hashType, secretKey };
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      return { kind: "refused", message: error.message };
    }
  }

  const store: BookStore = {
    get: (transId) => records.get(transId),
    all: () => [...records.values()],
    add: (entry) => {
      const transaction = { ...entry, transId: takeId() };
      keep(transaction);
      emit({ kind: "transaction", transaction });
      return transaction;
    },
    account: (accountId) => accounts.get(accountId),
    emit,
    now: options.now,
  };

  return {
    process,
    post: (fields, delivery) => {
      const done = process(fields, delivery, { origin: "bp20post" });
      if (done.kind === "refused") return { answer: refusalAnswer(new Refusal(done.message)) };
      const key = { secretKey: done.secretKey, hashType: done.hashType };
      const version = responseVersionOf(fields);
      const def = fields.get("BP_STAMP_DEF") ?? "";
      const answer = bp20postAnswer(done.transaction, done.message, version, key, def);
      return { answer, transaction: done.transaction };
    },
    query: (fields, hidden) => {
      try {
        const { accountId } = authenticate(fields, {
          defaultFields: QUERY_SEAL_FIELDS,
          requiredFields: QUERY_SEAL_FIELDS,
        });
        const visible = [...records.values()].filter((t) => !(hidden?.(t) ?? false));
        return queryAnswer(fields, accountId, visible);
      } catch (error) {
        return refusalAnswer(error);
      }
    },
    authenticateReport: (fields) =>
      authenticate(fields, { defaultFields: QUERY_SEAL_FIELDS, requiredFields: QUERY_SEAL_FIELDS }).accountId,
    transactions: () => [...records.values()].map((transaction) => ({ ...transaction })),
    addAccount: (account) => {
      if (account.accountId.trim() === "" || account.secretKey === "")
        throw new Error("accountId and secretKey are required");
      accounts.set(account.accountId.trim(), { ...account, accountId: account.accountId.trim() });
    },
    store,
  };
}
