import { describe, expect, it } from "vitest";
import {
  isApprovedSale,
  readDailyReport,
  reportDay,
  reportEventOf,
  splitReportLine,
  type DailyReportRecord,
} from "./daily-report.js";

// Bodies in the shape bpdailyreport2's document describes: a first line of the version-1 column
// names (in the document's order), then one line per transaction, commas in values as "\,".
const COLUMNS =
  "id,payment_type,trans_type,amount,card_type,payment_account,order_id,invoice_id,custom_id,custom_id2,master_id,status,f_void,message,origin,issue_date,settle_date,rebilling_id,settlement_id,card_expire,bank_name,addr1,addr2,city,state,zip,memo,phone,email,auth_code,name1,name2,company_name,backend_id";

function line(values: Record<string, string>): string {
  return COLUMNS.split(",")
    .map((name) => (values[name] ?? "").replace(/,/g, "\\,"))
    .join(",");
}

const SETTLED_SALE = line({
  id: "100000000201",
  payment_type: "CREDIT",
  trans_type: "SALE",
  amount: "45.00",
  card_type: "VISA",
  payment_account: "xxxxxxxxxxxx1111",
  order_id: "inst7-42",
  status: "1",
  message: "Approved Sale",
  origin: "bp20post",
  issue_date: "2026-11-26 14:02:11",
  settle_date: "2026-11-26 23:30:00",
  settlement_id: "300000000001",
  addr1: "9 Elm St, Suite 4",
  auth_code: "GYRUY",
  name1: "Pat",
  company_name: "Payer, Sons & Co",
});
const ACH_RETURN = line({
  id: "100000000305",
  payment_type: "ACH",
  trans_type: "VOID",
  amount: "41.00",
  payment_account: "C:123123123:xxxxxx4321",
  master_id: "100000000202",
  status: "1",
  message: "Insufficient Funds",
  origin: "REJECT",
  issue_date: "2026-11-28 09:00:00",
  auth_code: "R01",
});

describe("splitting a report line", () => {
  it("splits at commas and keeps escaped commas inside a value", () => {
    expect(splitReportLine("a,b\\,c,,d")).toEqual(["a", "b,c", "", "d"]);
    expect(splitReportLine("")).toEqual([""]);
    expect(splitReportLine("C:1\\,2,x\\y")).toEqual(["C:1,2", "x\\y"]);
  });

  it("unwraps values in double quotes as BluePay's quoted reports write them", () => {
    expect(splitReportLine('"2012-03-02","DBA ""X""",plain')).toEqual(["2012-03-02", 'DBA "X"', "plain"]);
  });
});

describe("reading bpdailyreport2", () => {
  it("reads records by the first line's column names", () => {
    const answer = readDailyReport(200, `${COLUMNS}\r\n${SETTLED_SALE}\r\n${ACH_RETURN}\r\n`);
    expect(answer.kind).toBe("report");
    if (answer.kind !== "report") return;
    expect(answer.columns).toHaveLength(34);
    expect(answer.records).toHaveLength(2);
    expect(answer.records[0]).toMatchObject({
      transId: "100000000201",
      paymentType: "CREDIT",
      transType: "SALE",
      amount: "45.00",
      status: "1",
      orderId: "inst7-42",
      origin: "bp20post",
      settleDate: "2026-11-26 23:30:00",
      settlementId: "300000000001",
      voided: false,
      account: "xxxxxxxxxxxx1111",
      authCode: "GYRUY",
    });
    expect(answer.records[1]).toMatchObject({ origin: "REJECT", masterId: "100000000202", authCode: "R01" });
  });

  it("follows the columns wherever they are, and leaves missing ones empty", () => {
    const answer = readDailyReport(200, "status,amount,ID\n1,12.50,100000000999\n");
    expect(answer).toMatchObject({
      kind: "report",
      records: [{ transId: "100000000999", amount: "12.50", status: "1", orderId: "", settleDate: "" }],
    });
  });

  it("reads HTTP 400 as the gateway's refusal with its one line", () => {
    expect(readDailyReport(400, "SECURITY ERROR\n")).toEqual({ kind: "refused", message: "SECURITY ERROR" });
    expect(readDailyReport(400, "")).toEqual({ kind: "refused", message: "HTTP 400" });
  });

  it("takes an empty 200 as a day without transactions and anything else as unclear", () => {
    expect(readDailyReport(200, "")).toEqual({ kind: "report", columns: [], records: [] });
    expect(readDailyReport(200, "<html><body>Maintenance</body></html>")).toMatchObject({ kind: "unclear" });
    expect(readDailyReport(502, "Bad Gateway")).toEqual({ kind: "unclear", detail: "HTTP 502" });
  });
});

function record(changes: Partial<DailyReportRecord>): DailyReportRecord {
  const answer = readDailyReport(200, `${COLUMNS}\n${SETTLED_SALE}\n`);
  if (answer.kind !== "report" || !answer.records[0]) throw new Error("no record");
  return { ...answer.records[0], ...changes };
}

describe("what a record means", () => {
  it("an approved, unvoided sale is money taken; a void, a decline or a reject is not", () => {
    expect(isApprovedSale(record({}))).toBe(true);
    expect(isApprovedSale(record({ transType: "CAPTURE" }))).toBe(true);
    expect(isApprovedSale(record({ voided: true }))).toBe(false);
    expect(isApprovedSale(record({ status: "0" }))).toBe(false);
    expect(isApprovedSale(record({ transType: "REFUND" }))).toBe(false);
    expect(isApprovedSale(record({ origin: "REJECT", masterId: "1" }))).toBe(false);
  });

  it("an ACH reject is a return (R-code) or a notification of change (C-code)", () => {
    const reject = { origin: "REJECT", paymentType: "ACH", masterId: "100000000202", message: "NSF" };
    expect(reportEventOf(record({ ...reject, authCode: "R01" }))).toEqual({
      kind: "returned",
      originalTransId: "100000000202",
      code: "R01",
      reason: "NSF",
    });
    expect(reportEventOf(record({ ...reject, authCode: "c03" }))).toMatchObject({ kind: "noc", code: "C03" });
  });

  it("a card reject is a chargeback, or its reversal when it moves money back in", () => {
    const reject = { origin: "REJECT", paymentType: "CREDIT", masterId: "100000000201", authCode: "4837" };
    expect(reportEventOf(record({ ...reject, transType: "REFUND" }))).toMatchObject({
      kind: "charged_back",
      code: "4837",
    });
    expect(reportEventOf(record({ ...reject, transType: "SALE" }))).toMatchObject({
      kind: "chargeback_reversed",
    });
    expect(
      reportEventOf(record({ ...reject, transType: "CREDIT", message: "Chargeback reversal" })),
    ).toMatchObject({ kind: "chargeback_reversed" });
  });

  it("a record that is not a reject, or names no sale, is no event", () => {
    expect(reportEventOf(record({}))).toBeNull();
    expect(reportEventOf(record({ origin: "REJECT", masterId: "" }))).toBeNull();
  });

  it("reads the day of a report timestamp", () => {
    expect(reportDay("2026-11-26 23:30:00")).toBe("2026-11-26");
    expect(reportDay("")).toBe("");
  });
});
