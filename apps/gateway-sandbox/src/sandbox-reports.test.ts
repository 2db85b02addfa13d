import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "./bluepay-sandbox.js";
import { DEMO_ACCOUNT } from "./sandbox-accounts.js";
import { DAILY_REPORT_COLUMNS, RECON_COLUMNS } from "./sandbox-reports.js";
import { JUNE_2030, sale, seal, transaction } from "./test-support/protocol-client.js";

// bpdailyreport2 and bvdailyreport2 as BluePay's interface documents describe them, over HTTP.

const running: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

async function sandboxAt(): Promise<Sandbox> {
  const sandbox = await startSandbox({ now: () => new Date(JUNE_2030), firstTransId: "100000000001" });
  running.push(sandbox);
  return sandbox;
}

/** A report request sealed as BluePay's SDKs seal it (calcReportTPS: account, start, end). */
async function report(
  sandbox: Sandbox,
  path: string,
  fields: Record<string, string>,
  secretKey = DEMO_ACCOUNT.secretKey,
) {
  const all = {
    ACCOUNT_ID: DEMO_ACCOUNT.accountId,
    REPORT_START_DATE: "2030-06-15",
    REPORT_END_DATE: "2030-06-16",
    MODE: "TEST",
    TPS_HASH_TYPE: "HMAC_SHA512",
    ...fields,
  };
  const tps = seal(secretKey, all, ["ACCOUNT_ID", "REPORT_START_DATE", "REPORT_END_DATE"], "HMAC_SHA512");
  const response = await fetch(`${sandbox.url}/interfaces/${path}`, {
    method: "POST",
    body: new URLSearchParams({ ...all, TAMPER_PROOF_SEAL: tps }),
  });
  return {
    status: response.status,
    lines: (await response.text()).split("\n").filter((line) => line !== ""),
  };
}

/** Splits a line on commas not escaped with a backslash. */
const cells = (line: string) => line.split(/(?<!\\),/).map((cell) => cell.replace(/\\,/g, ","));
const rowsOf = (lines: string[]) => {
  const header = cells(lines[0] ?? "");
  return lines.slice(1).map((line) => Object.fromEntries(cells(line).map((value, i) => [header[i], value])));
};

describe("bpdailyreport2", () => {
  it("answers the documented columns, one line per transaction of the day, commas escaped", async () => {
    const sandbox = await sandboxAt();
    const paid = (await sale(sandbox, "3.00", { NAME1: "Smith, Jr.", ORDER_ID: "o,1" })).fields.get(
      "TRANS_ID",
    );
    await sale(sandbox, "4.00");
    const { status, lines } = await report(sandbox, "bpdailyreport2", {});
    expect(status).toBe(200);
    expect(lines[0]).toBe(DAILY_REPORT_COLUMNS.join(","));
    expect(lines[1]).toContain("Smith\\, Jr.");
    expect(rowsOf(lines)).toMatchObject([
      {
        id: paid,
        payment_type: "CREDIT",
        trans_type: "SALE",
        amount: "3.00",
        card_type: "VISA",
        payment_account: "xxxxxxxxxxxx1111",
        order_id: "o,1",
        status: "1",
        origin: "bp20post",
        issue_date: "2030-06-15 12:00:00",
        settle_date: "",
        name1: "Smith, Jr.",
      },
      { amount: "4.00", status: "0", message: "Declined" },
    ]);
    // DO_NOT_ESCAPE: commas and quotes removed. RESPONSEVERSION 2 adds its four columns.
    const plain = await report(sandbox, "bpdailyreport2", { DO_NOT_ESCAPE: "1", RESPONSEVERSION: "2" });
    expect(plain.lines[0]?.endsWith(",avs_result,cvv_result,merchdata,card_present")).toBe(true);
    expect(plain.lines[1]).toContain(",Smith Jr.,");
    // MODE defaults to LIVE: the sandbox's TEST transactions are not there. The end day is not included.
    expect((await report(sandbox, "bpdailyreport2", { MODE: "" })).lines).toHaveLength(1);
    expect(
      (
        await report(sandbox, "bpdailyreport2", {
          REPORT_START_DATE: "2030-06-14",
          REPORT_END_DATE: "2030-06-15",
        })
      ).lines,
    ).toHaveLength(1);
  });

  it("lists settled transactions and returns by settlement date with QUERY_BY_SETTLEMENT", async () => {
    const sandbox = await sandboxAt();
    const card = (await sale(sandbox, "3.00")).fields.get("TRANS_ID") ?? "";
    const ach =
      (
        await transaction(sandbox, {
          AMOUNT: "45.00",
          PAYMENT_TYPE: "ACH",
          PAYMENT_ACCOUNT: "C:123456780:1234567890",
        })
      ).fields.get("TRANS_ID") ?? "";
    await sale(sandbox, "5.00"); // never settled
    sandbox.settle(card, "2030-06-16");
    sandbox.settle(ach, "2030-06-16");
    sandbox.returnTransaction(ach, "R01", "2030-06-18");
    const settledOn16 = await report(sandbox, "bpdailyreport2", {
      QUERY_BY_SETTLEMENT: "1",
      REPORT_START_DATE: "2030-06-16",
      REPORT_END_DATE: "2030-06-17",
    });
    const rows = rowsOf(settledOn16.lines);
    expect(rows.map((row) => [row.id, row.settle_date])).toEqual([
      [card, "2030-06-16 23:59:59"],
      [ach, "2030-06-16 23:59:59"],
    ]);
    expect(rows[0]?.settlement_id).toMatch(/^\d{12}$/);
    const returns = rowsOf(
      (
        await report(sandbox, "bpdailyreport2", {
          QUERY_BY_SETTLEMENT: "1",
          REPORT_START_DATE: "2030-06-18",
          REPORT_END_DATE: "2030-06-19",
        })
      ).lines,
    );
    expect(returns).toMatchObject([
      {
        origin: "REJECT",
        master_id: ach,
        trans_type: "VOID",
        auth_code: "R01",
        amount: "45.00",
        payment_type: "ACH",
        card_type: "",
      },
    ]);
  });

  it("answers HTTP 400 with one line on a bad seal, an unknown account or a bad date", async () => {
    const sandbox = await sandboxAt();
    expect(await report(sandbox, "bpdailyreport2", {}, "WRONG")).toEqual({
      status: 400,
      lines: ["SECURITY ERROR"],
    });
    expect(await report(sandbox, "bpdailyreport2", { ACCOUNT_ID: "999999999999" })).toEqual({
      status: 400,
      lines: ["Unable to locate account"],
    });
    expect(await report(sandbox, "bpdailyreport2", { REPORT_START_DATE: "June" })).toEqual({
      status: 400,
      lines: ["Invalid REPORT_START_DATE"],
    });
  });
});

describe("bvdailyreport2", () => {
  it("answers TRANSACTION_RECON2 (settled card sales) and CHARGEBACKS quoted, as the document's samples", async () => {
    const sandbox = await sandboxAt();
    const paid = (await sale(sandbox, "41.00", { INVOICE_ID: "inv-9" })).fields.get("TRANS_ID") ?? "";
    sandbox.settle(paid, "2030-06-16");
    sandbox.chargeback(paid, { reason: "Unauthorized Purchase", date: "2030-06-20" });
    const recon = await report(sandbox, "bvdailyreport2", {
      REPORT_TYPE: "TRANSACTION_RECON2",
      REPORT_START_DATE: "2030-06-16",
      REPORT_END_DATE: "2030-06-17",
    });
    expect(recon.lines[0]).toBe(RECON_COLUMNS.map((name) => `"${name}"`).join(","));
    expect(recon.lines[1]).toMatch(
      /^"2030-06-15","CYCLEBILL SANDBOX","0000100200300400","\d{12}","","VISA","S","\*{12}1111","N","2030-06-15 12:00:00","41.00","inv-9","100000000001","2030-06-16 23:59:59"/,
    );
    const chargebacks = await report(sandbox, "bvdailyreport2", {
      REPORT_TYPE: "CHARGEBACKS",
      REPORT_START_DATE: "2030-06-20",
      REPORT_END_DATE: "2030-06-21",
    });
    expect(chargebacks.lines[1]).toBe(
      `"2030-06-15","0000100200300400","CYCLEBILL SANDBOX","100000000002","2030-06-20","************1111","Chargeback 4837: Unauthorized Purchase","","41.00","2030-06-15","4837","","41.00","${paid}"`,
    );
    expect(await report(sandbox, "bvdailyreport2", { REPORT_TYPE: "RETRIEVALS" })).toEqual({
      status: 400,
      lines: ["REPORT_TYPE RETRIEVALS is not supported by this sandbox"],
    });
  });
});
