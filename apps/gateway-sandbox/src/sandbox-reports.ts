import { Refusal } from "./protocol-answer.js";
import type { SandboxBook } from "./sandbox-book.js";
import { reportTime } from "./sandbox-time.js";
import type { SandboxTransaction } from "./sandbox-transaction.js";

// BluePay's daily reports, as their 2013/2014 interface documents describe them:
// bpdailyreport2 ("Daily Report" V2): a first line of column names, then one comma-separated line
// per transaction, commas in the data escaped with a backslash (DO_NOT_ESCAPE=1: commas and quotes
// removed); HTTP 400 with one line naming the failure. bvdailyreport2 (BlueView "Merchant Daily
// Report 2"): REPORT_TYPE TRANSACTION_RECON2 or CHARGEBACKS, every value double-quoted as the
// document's sample output shows. Dates: from midnight of REPORT_START_DATE to the end of the day
// before REPORT_END_DATE.

export type ReportAnswer = { httpStatus: 200 | 400; body: string; type: string };

const TEXT = "text/plain; charset=utf-8";

/** bpdailyreport2's version 1 columns, in the document's order. */
export const DAILY_REPORT_COLUMNS = [
  "id",
  "payment_type",
  "trans_type",
  "amount",
  "card_type",
  "payment_account",
  "order_id",
  "invoice_id",
  "custom_id",
  "custom_id2",
  "master_id",
  "status",
  "f_void",
  "message",
  "origin",
  "issue_date",
  "settle_date",
  "rebilling_id",
  "settlement_id",
  "card_expire",
  "bank_name",
  "addr1",
  "addr2",
  "city",
  "state",
  "zip",
  "memo",
  "phone",
  "email",
  "auth_code",
  "name1",
  "name2",
  "company_name",
  "backend_id",
] as const;
/** Added from RESPONSEVERSION 2 on. */
export const DAILY_REPORT_V2_COLUMNS = ["avs_result", "cvv_result", "merchdata", "card_present"] as const;

export const RECON_COLUMNS = [
  "rundate",
  "dba",
  "mid",
  "batch_number",
  "term_num",
  "card_type",
  "transaction_code",
  "card_number",
  "man_entered",
  "transaction_date",
  "transaction_amount",
  "invoice_number",
  "customer_code",
  "batch_date",
  "deposit_date",
  "trace_number",
  "interchange_qualification",
  "downgrade_reasons",
  "pindebit_network",
] as const;

export const CHARGEBACK_COLUMNS = [
  "rundate",
  "mid",
  "dba",
  "seqno",
  "cbdate",
  "cardholder",
  "reasons",
  "refno",
  "amount",
  "trandate",
  "cbrefno",
  "cbxref",
  "tranamt",
  "customer_code",
] as const;

const failed = (message: string): ReportAnswer => ({ httpStatus: 400, body: `${message}\n`, type: TEXT });

function dateRange(fields: ReadonlyMap<string, string>): { start: string; end: string } {
  const read = (name: string) => {
    const value = (fields.get(name) ?? "").trim();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
      throw new Refusal(`Invalid ${name}`);
    return value;
  };
  return { start: read("REPORT_START_DATE"), end: read("REPORT_END_DATE") };
}

function run(book: SandboxBook, fields: ReadonlyMap<string, string>, build: (accountId: string) => string) {
  try {
    return { httpStatus: 200 as const, body: build(book.authenticateReport(fields)), type: TEXT };
  } catch (error) {
    if (error instanceof Refusal) return failed(error.message);
    throw error;
  }
}

function dailyRow(t: SandboxTransaction, withAccount: boolean, v2: boolean): string[] {
  const row = [
    t.transId,
    t.paymentType,
    t.transType,
    t.amount,
    t.paymentType === "ACH" ? "" : t.cardType,
    t.mask,
    t.orderId,
    t.invoiceId,
    "",
    "",
    t.masterId,
    t.status,
    t.voided ? "1" : "0",
    t.message,
    t.origin,
    reportTime(t.issuedAt),
    t.settleDate,
    "",
    t.settlementId,
    t.cardExpire,
    "",
    "",
    "",
    "",
    "",
    "",
    t.memo,
    "",
    "",
    t.authCode,
    t.name1,
    t.name2,
    "",
    "",
  ];
  if (withAccount) row.push(t.accountId);
  if (v2) row.push(t.avs, t.cvv2, "", "0");
  return row;
}

/** POST /interfaces/bpdailyreport2. */
export function bpDailyReport2(book: SandboxBook, fields: ReadonlyMap<string, string>): ReportAnswer {
  return run(book, fields, (accountId) => {
    const field = (name: string) => (fields.get(name) ?? "").trim();
    const { start, end } = dateRange(fields);
    const mode = field("MODE").toUpperCase() || "LIVE";
    if (mode !== "LIVE" && mode !== "TEST") throw new Refusal("Invalid MODE");
    const bySettlement = field("QUERY_BY_SETTLEMENT") === "1";
    const withAccount = field("QUERY_BY_HIERARCHY") === "1";
    const version = Number(/^\d+$/.test(field("RESPONSEVERSION")) ? field("RESPONSEVERSION") : "1");
    // DO_NOT_ESCAPE: commas and quotes removed; else a comma in the data becomes "\,". Line breaks
    // would end a row, so they become spaces (the sandbox's choice; the document is silent).
    const clean = (value: string) => {
      const flat = value.replace(/[\r\n]+/g, " ");
      return field("DO_NOT_ESCAPE") === "1" ? flat.replace(/[,"]/g, "") : flat.replace(/,/g, "\\,");
    };
    const rows = book
      .transactions()
      .filter((t) => {
        if (t.accountId !== accountId || t.mode !== mode) return false;
        const day = bySettlement ? t.settleDate.slice(0, 10) : t.issuedAt.slice(0, 10);
        return day !== "" && day >= start && day < end;
      })
      .sort((a, b) => (BigInt(a.transId) < BigInt(b.transId) ? -1 : 1));
    const header = [
      ...DAILY_REPORT_COLUMNS,
      ...(withAccount ? ["account_id"] : []),
      ...(version >= 2 ? DAILY_REPORT_V2_COLUMNS : []),
    ];
    const lines = rows.map((t) =>
      dailyRow(t, withAccount, version >= 2)
        .map(clean)
        .join(","),
    );
    return [header.join(","), ...lines].map((line) => `${line}\n`).join("");
  });
}

const quoted = (values: readonly string[]) => values.map((v) => `"${v.replace(/"/g, '""')}"`).join(",");
const midOf = (accountId: string) => accountId.padStart(16, "0");
const dba = "CYCLEBILL SANDBOX";
const cardNumberOf = (mask: string) => mask.replace(/x/g, "*");
const BLUEVIEW_CARD_TYPES: Record<string, string> = { MC: "MASTERCARD", DISC: "DISCOVER" };

/** POST /interfaces/bvdailyreport2 (card transactions only: BlueView is the card merchant account). */
export function bvDailyReport2(book: SandboxBook, fields: ReadonlyMap<string, string>): ReportAnswer {
  return run(book, fields, (accountId) => {
    const type = (fields.get("REPORT_TYPE") ?? "").trim();
    const { start, end } = dateRange(fields);
    const rundate = book.store.now().toISOString().slice(0, 10);
    const inRange = (day: string) => day !== "" && day >= start && day < end;
    const mine = book
      .transactions()
      .filter((t) => t.accountId === accountId && t.paymentType === "CREDIT")
      .sort((a, b) => (BigInt(a.transId) < BigInt(b.transId) ? -1 : 1));
    if (type === "TRANSACTION_RECON2") {
      const settled = mine.filter(
        (t) =>
          t.origin !== "REJECT" &&
          (t.transType === "SALE" || t.transType === "REFUND") &&
          inRange(t.settleDate.slice(0, 10)),
      );
      const rows = settled.map((t) => [
        rundate,
        dba,
        midOf(accountId),
        t.settlementId,
        "",
        BLUEVIEW_CARD_TYPES[t.cardType] ?? t.cardType,
        t.transType === "SALE" ? "S" : "R",
        cardNumberOf(t.mask),
        "N",
        reportTime(t.issuedAt),
        t.amount,
        t.invoiceId.slice(0, 8),
        t.transId,
        t.settleDate,
        t.settleDate,
        "",
        "",
        "",
        "",
      ]);
      return [RECON_COLUMNS, ...rows].map((row) => `${quoted(row)}\n`).join("");
    }
    if (type === "CHARGEBACKS") {
      const chargebacks = mine.filter(
        (t) => t.rejectKind === "chargeback" && inRange(t.issuedAt.slice(0, 10)),
      );
      const rows = chargebacks.map((t) => {
        const sale = book.store.get(t.masterId);
        return [
          rundate,
          midOf(accountId),
          dba,
          t.transId,
          t.issuedAt.slice(0, 10),
          cardNumberOf(t.mask),
          t.message,
          "",
          t.amount,
          sale?.issuedAt.slice(0, 10) ?? "",
          t.rejectCode,
          "",
          sale?.amount ?? "",
          t.masterId,
        ];
      });
      return [CHARGEBACK_COLUMNS, ...rows].map((row) => `${quoted(row)}\n`).join("");
    }
    throw new Refusal(
      type === "" ? "Missing REPORT_TYPE" : `REPORT_TYPE ${type} is not supported by this sandbox`,
    );
  });
}
