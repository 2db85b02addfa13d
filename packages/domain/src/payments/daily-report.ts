// Reading BluePay's daily report (bpdailyreport2, "Daily Report" V2). Its document: HTTP 200 with a
// first line of column names, then one comma-separated line per transaction, a comma inside a
// value escaped with a backslash ("\,"); HTTP 400 with one line saying why. Parse by the first
// line's names, never by position: the document warns that the number and order may change.

/** One transaction line, typed. Absent columns are empty strings. */
export type DailyReportRecord = {
  transId: string;
  paymentType: string;
  transType: string;
  amount: string;
  /** "1" approved, "0" declined, "E" error. */
  status: string;
  orderId: string;
  invoiceId: string;
  /** The TRANS_ID a transaction came from: for an origin=REJECT record, our sale. */
  masterId: string;
  origin: string;
  message: string;
  /** The card authorization code; on an ACH reject, the reject code (R01…, C01… for a NOC). */
  authCode: string;
  /** "yyyy-mm-dd hh:mm:ss" as written ("" when not settled). */
  issueDate: string;
  settleDate: string;
  settlementId: string;
  voided: boolean;
  /** PAYMENT_ACCOUNT as reported: a mask ("xxxxxxxxxxxx1111", "C:123123123:xxxx4321"). */
  account: string;
  memo: string;
};

export type DailyReportAnswer =
  | { kind: "report"; columns: string[]; records: DailyReportRecord[] }
  /** HTTP 400: the gateway refused the request (bad seal, unknown account, bad dates). */
  | { kind: "refused"; message: string }
  /** Anything else: a proxy's page, a 5xx, a body without the column line. */
  | { kind: "unclear"; detail: string };

/**
 * Splits one line at its unescaped commas; "\," is a comma inside a value. A value wrapped in
 * double quotes (the quoted style of BluePay's other reports, which DO_NOT_ESCAPE's "quotes
 * removed" hints at) is unwrapped, "" standing for one quote. Other backslashes stay as written.
 */
export function splitReportLine(line: string): string[] {
  const cells: string[] = [];
  let current = "";
  for (let at = 0; at < line.length; at += 1) {
    const char = line[at];
    if (char === "\\" && line[at + 1] === ",") {
      current += ",";
      at += 1;
    } else if (char === ",") {
      cells.push(current);
      current = "";
    } else current += char;
  }
  cells.push(current);
  return cells.map(unquote);
}

function unquote(cell: string): string {
  if (cell.length >= 2 && cell.startsWith('"') && cell.endsWith('"'))
    return cell.slice(1, -1).replace(/""/g, '"');
  return cell;
}

function recordOf(values: ReadonlyMap<string, string>): DailyReportRecord {
  const field = (name: string) => (values.get(name) ?? "").trim();
  return {
    transId: field("id"),
    paymentType: field("payment_type").toUpperCase(),
    transType: field("trans_type").toUpperCase(),
    amount: field("amount"),
    status: field("status").toUpperCase(),
    orderId: field("order_id"),
    invoiceId: field("invoice_id"),
    masterId: field("master_id"),
    origin: field("origin"),
    message: field("message"),
    authCode: field("auth_code"),
    issueDate: field("issue_date"),
    settleDate: field("settle_date"),
    settlementId: field("settlement_id"),
    voided: field("f_void") === "1",
    account: field("payment_account"),
    memo: field("memo"),
  };
}

/**
 * The report, or why there is none. A 200 body must start with a column line naming "id"; an
 * empty 200 body is read as a day without transactions (our choice: the document shows no empty
 * report, and a missing day then shows as differences rather than hiding them).
 */
export function readDailyReport(httpStatus: number, body: string): DailyReportAnswer {
  const lines = body.split(/\r?\n/).filter((line) => line.trim() !== "");
  if (httpStatus === 400) return { kind: "refused", message: (lines[0] ?? "").trim() || "HTTP 400" };
  if (httpStatus !== 200) return { kind: "unclear", detail: `HTTP ${httpStatus}` };
  const [header, ...rows] = lines;
  if (header === undefined) return { kind: "report", columns: [], records: [] };
  const columns = splitReportLine(header).map((name) => name.trim().toLowerCase());
  if (!columns.includes("id")) return { kind: "unclear", detail: "no column line naming id" };
  const records = rows.map((row) => {
    const cells = splitReportLine(row);
    return recordOf(new Map(columns.map((name, at) => [name, cells[at] ?? ""])));
  });
  return { kind: "report", columns, records };
}

/** The YYYY-MM-DD of a report timestamp ("2026-11-27 18:01:02" → "2026-11-27"), "" when none. */
export function reportDay(timestamp: string): string {
  const day = timestamp.trim().slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : "";
}

export type ReportEventKind = "returned" | "charged_back" | "chargeback_reversed" | "noc";

/** What a record means for one of our sales, or null when it is not an event (a sale, a refund). */
export type ReportEvent = { kind: ReportEventKind; originalTransId: string; code: string; reason: string };

const MONEY_IN_TYPES = new Set(["SALE", "CAPTURE"]);

/**
 * An origin=REJECT record (a bank's reject or chargeback, master_id = our sale) as an event. ACH:
 * the reject code is in auth_code, R… a return, C… a notification of change. Cards: money taken
 * back is a chargeback; a REJECT moving money in (SALE/CAPTURE), or whose message names a
 * reversal, gives it back. BluePay documents no more than that; the rest is our reading.
 */
export function reportEventOf(record: DailyReportRecord): ReportEvent | null {
  if (record.origin.toUpperCase() !== "REJECT" || record.masterId === "") return null;
  const code = record.authCode.toUpperCase();
  const base = { originalTransId: record.masterId, reason: record.message };
  if (record.paymentType === "ACH") {
    if (/^C\d{2}$/.test(code)) return { kind: "noc", code, ...base };
    return { kind: "returned", code: /^R\d{2}$/.test(code) ? code : "", ...base };
  }
  const reversal = MONEY_IN_TYPES.has(record.transType) || /revers/i.test(record.message);
  return { kind: reversal ? "chargeback_reversed" : "charged_back", code: code.slice(0, 8), ...base };
}

/** A sale (or capture) the gateway approved, not voided and not a reject: money the merchant took. */
export function isApprovedSale(record: DailyReportRecord): boolean {
  return (
    record.status === "1" &&
    MONEY_IN_TYPES.has(record.transType) &&
    !record.voided &&
    record.origin.toUpperCase() !== "REJECT"
  );
}
