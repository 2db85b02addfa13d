import { RECORD_DEFAULTS, type SandboxTransaction } from "./sandbox-transaction.js";
import type { BookStore } from "./sandbox-book.js";
import { reportTime } from "./sandbox-time.js";

// What happens to money after the first answer, as test controls: a settlement, an ACH return,
// a card chargeback and its reversal, a notification of change. Each return, chargeback, reversal
// and NOC is its own record with origin REJECT and master_id the original TRANS_ID, as BluePay's
// report and Trans Notify documents show rejects; for ACH the reject code is in auth_code ("the
// reject code on ACH VOIDS"). Trans types, status, amounts and messages beyond that are the
// sandbox's choices (docs/gateway-sandbox.md).

/** A control asked about a TRANS_ID the sandbox never issued (404). */
export class UnknownTransaction extends Error {}
/** A control that cannot apply (400 with {error}). */
export class BadControl extends Error {}

function bad(message: string): never {
  throw new BadControl(message);
}

// NACHA return reason codes (their published names); any other Rnn is taken as "Return Rnn".
const RETURN_REASONS: Record<string, string> = {
  R01: "Insufficient Funds",
  R02: "Account Closed",
  R03: "No Account/Unable to Locate Account",
  R04: "Invalid Account Number",
  R05: "Unauthorized Debit to Consumer Account Using Corporate SEC Code",
  R06: "Returned per ODFI's Request",
  R07: "Authorization Revoked by Customer",
  R08: "Payment Stopped",
  R09: "Uncollected Funds",
  R10: "Customer Advises Not Authorized",
  R11: "Customer Advises Entry Not in Accordance with the Terms of the Authorization",
  R12: "Branch Sold to Another DFI",
  R14: "Representative Payee Deceased",
  R15: "Beneficiary or Account Holder Deceased",
  R16: "Account Frozen",
  R20: "Non-Transaction Account",
  R23: "Credit Entry Refused by Receiver",
  R24: "Duplicate Entry",
  R29: "Corporate Customer Advises Not Authorized",
};

const CHANGE_REASONS: Record<string, string> = {
  C01: "Incorrect DFI Account Number",
  C02: "Incorrect Routing Number",
  C03: "Incorrect Routing Number and Incorrect DFI Account Number",
  C04: "Incorrect Individual Name/Receiving Company Name",
  C05: "Incorrect Transaction Code",
  C06: "Incorrect DFI Account Number and Incorrect Transaction Code",
  C07: "Incorrect Routing Number, Incorrect DFI Account Number, and Incorrect Transaction Code",
};

export const DEFAULT_CHARGEBACK_CODE = "4837";
const DEFAULT_CHARGEBACK_REASON = "No Cardholder Authorization";

export type SandboxEvents = {
  settle: (transId: string, date?: string) => SandboxTransaction[];
  returnTransaction: (transId: string, code: string, date?: string) => SandboxTransaction[];
  chargeback: (
    transId: string,
    details?: { code?: string; reason?: string; date?: string },
  ) => SandboxTransaction[];
  reverseChargeback: (transId: string, date?: string) => SandboxTransaction[];
  noc: (transId: string, code: string, corrected: string, date?: string) => SandboxTransaction[];
  settleAll: (date?: string) => SandboxTransaction[];
};

export function createSandboxEvents(store: BookStore): SandboxEvents {
  // Settlement batches: one id per account and day, handed out in order (kept ones first).
  const batches = new Map<string, string>();
  for (const t of store.all())
    if (t.settlementId !== "") batches.set(`${t.accountId} ${t.settleDate.slice(0, 10)}`, t.settlementId);
  let nextBatch = 500_000_000_001 + batches.size;
  const batchOf = (accountId: string, day: string) => {
    const key = `${accountId} ${day}`;
    const known = batches.get(key);
    if (known) return known;
    const id = String(nextBatch++);
    batches.set(key, id);
    return id;
  };

  const dayOf = (date: string | undefined, earliest?: SandboxTransaction): string => {
    const day = date ?? store.now().toISOString().slice(0, 10);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)))
      bad("date must be YYYY-MM-DD");
    if (earliest && day < earliest.issuedAt.slice(0, 10))
      bad(`date ${day} is before transaction ${earliest.transId} was issued`);
    return day;
  };

  const original = (transId: string): SandboxTransaction => {
    const found = store.get(transId);
    if (!found) throw new UnknownTransaction(`No transaction ${transId}`);
    return found;
  };

  /**
   * When an event of that day happens: now when it is the sandbox's today, else the day's last
   * second (batches settle at the end of the day); the sandbox's choice.
   */
  const momentOf = (day: string): string => {
    const now = store.now().toISOString();
    return now.slice(0, 10) === day ? now : `${day}T23:59:59.000Z`;
  };

  const settleOn = (transaction: SandboxTransaction, day: string) => {
    transaction.settleDate = reportTime(momentOf(day));
    transaction.settlementId = batchOf(transaction.accountId, day);
    store.emit({ kind: "settle", transaction });
  };

  const settleable = (t: SandboxTransaction) =>
    t.origin !== "REJECT" &&
    t.status === "1" &&
    !t.voided &&
    (t.transType === "SALE" || t.transType === "REFUND");

  /** A return, chargeback or reversal moves money: it is settled the day it happens (the sandbox's choice). */
  const reject = (
    master: SandboxTransaction,
    day: string,
    fields: Pick<SandboxTransaction, "transType" | "amount" | "message" | "rejectKind" | "rejectCode"> &
      Partial<SandboxTransaction>,
  ): SandboxTransaction => {
    const settles = fields.rejectKind !== "noc";
    const added = store.add({
      ...RECORD_DEFAULTS,
      accountId: master.accountId,
      mode: master.mode,
      paymentType: master.paymentType,
      status: "1",
      masterId: master.transId,
      orderId: "",
      invoiceId: "",
      name1: master.name1,
      name2: master.name2,
      mask: master.mask,
      cardType: master.cardType,
      cardExpire: master.cardExpire,
      fingerprint: "",
      authCode: fields.rejectCode,
      avs: "_",
      cvv2: "_",
      issuedAt: momentOf(day),
      voided: false,
      refunded: "0.00",
      delivery: "sent",
      hashType: master.hashType,
      storedIndicator: "",
      storedType: "",
      storedId: "",
      docType: master.docType,
      customerIp: "",
      duplicateOverride: false,
      origin: "REJECT",
      ...fields,
      settleDate: settles ? reportTime(momentOf(day)) : "",
      settlementId: settles ? batchOf(master.accountId, day) : "",
    });
    return added;
  };

  const rejectsOf = (master: SandboxTransaction) =>
    store.all().filter((t) => t.origin === "REJECT" && t.masterId === master.transId);

  /** A return or chargeback comes after the money moved: an unsettled sale is settled that day first. */
  const settledBy = (master: SandboxTransaction, day: string): SandboxTransaction[] => {
    if (master.settleDate !== "") {
      if (master.settleDate.slice(0, 10) > day) bad(`date ${day} is before its settlement`);
      return [];
    }
    settleOn(master, day);
    return [master];
  };

  const approvedSale = (t: SandboxTransaction, paymentType: "ACH" | "CREDIT", what: string) => {
    if (t.origin === "REJECT" || t.transType !== "SALE" || t.status !== "1" || t.paymentType !== paymentType)
      bad(`${what} applies to approved ${paymentType === "ACH" ? "ACH" : "card"} sales only`);
    if (t.voided) bad(`transaction ${t.transId} was voided`);
  };

  return {
    settle: (transId, date) => {
      const t = original(transId);
      if (!settleable(t)) bad("only approved, unvoided sales and refunds settle");
      if (t.settleDate !== "") bad(`transaction ${transId} settled on ${t.settleDate.slice(0, 10)} already`);
      settleOn(t, dayOf(date, t));
      return [t];
    },
    settleAll: (date) => {
      const day = dayOf(date);
      const due = store
        .all()
        .filter((t) => settleable(t) && t.settleDate === "" && t.issuedAt.slice(0, 10) <= day);
      for (const t of due) settleOn(t, day);
      return due;
    },
    returnTransaction: (transId, code, date) => {
      const master = original(transId);
      if (!/^R\d{2}$/.test(code)) bad("code must be a return reason code R01..R99");
      approvedSale(master, "ACH", "a return");
      if (rejectsOf(master).some((t) => t.rejectKind === "return"))
        bad(`transaction ${transId} was returned already`);
      const day = dayOf(date, master);
      const settled = settledBy(master, day);
      const reason = RETURN_REASONS[code] ?? `Return ${code}`;
      const record = reject(master, day, {
        transType: "VOID",
        amount: master.amount,
        message: `${code} ${reason}`,
        rejectKind: "return",
        rejectCode: code,
      });
      return [record, ...settled];
    },
    chargeback: (transId, details = {}) => {
      const master = original(transId);
      const code = details.code ?? DEFAULT_CHARGEBACK_CODE;
      if (!/^[A-Za-z0-9.]{1,8}$/.test(code)) bad("code must be 1 to 8 letters or digits");
      approvedSale(master, "CREDIT", "a chargeback");
      const open = rejectsOf(master).filter((t) => t.rejectKind === "chargeback").length;
      const reversed = rejectsOf(master).filter((t) => t.rejectKind === "chargeback-reversal").length;
      if (open > reversed) bad(`transaction ${transId} is charged back already`);
      const day = dayOf(details.date, master);
      const settled = settledBy(master, day);
      const reason = (details.reason ?? DEFAULT_CHARGEBACK_REASON).replace(/\s+/g, " ").trim().slice(0, 46);
      const record = reject(master, day, {
        transType: "REFUND",
        amount: master.amount,
        message: `Chargeback ${code}: ${reason}`,
        rejectKind: "chargeback",
        rejectCode: code,
      });
      return [record, ...settled];
    },
    reverseChargeback: (transId, date) => {
      const given = original(transId);
      // The chargeback's own id or the sale's both name it.
      const master = given.rejectKind === "chargeback" ? original(given.masterId) : given;
      const chargebacks = rejectsOf(master).filter((t) => t.rejectKind === "chargeback");
      const reversals = rejectsOf(master).filter((t) => t.rejectKind === "chargeback-reversal");
      const last = chargebacks.at(-1);
      if (!last || chargebacks.length <= reversals.length)
        bad(`transaction ${transId} has no open chargeback`);
      const day = dayOf(date, last);
      const record = reject(master, day, {
        transType: "SALE",
        amount: last.amount,
        message: `Chargeback reversal ${last.rejectCode}`,
        rejectKind: "chargeback-reversal",
        rejectCode: last.rejectCode,
      });
      return [record];
    },
    noc: (transId, code, corrected, date) => {
      const master = original(transId);
      const reason = CHANGE_REASONS[code] ?? bad("code must be a change code C01..C07");
      if (master.origin === "REJECT" || master.paymentType !== "ACH" || master.transType !== "SALE")
        bad("a notification of change applies to ACH sales only");
      const value = corrected.trim();
      if (value === "" || value.length > 64 || /[\r\n]/.test(value))
        bad("corrected must be the corrected data, 1 to 64 characters on one line");
      const record = reject(master, dayOf(date, master), {
        transType: "UPDATE",
        amount: "0.00",
        message: `${code} ${reason}`,
        rejectKind: "noc",
        rejectCode: code,
        memo: value,
      });
      return [record];
    },
  };
}
