import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { isGatewayHashType } from "@cyclebill/domain";
import { DAILY_REPORT_COLUMNS } from "@cyclebill/gateway-sandbox";
import type { BluepayCredentials } from "../modules/payments/bluepay-client.js";
import { sealOf } from "../modules/payments/gateway-seal.js";

// A stand-in for BluePay's daily report (bpdailyreport2) serving the records a test writes (the
// sandbox serves its own, but a test needs differences the sandbox would never make): the report of
// those records, per account, written as the document describes (a column line, one
// line per transaction, commas in values as "\,", HTTP 400 with one line on error) and filtered by
// issue or settlement date. Every other path is passed through to a real gateway sandbox, so the
// server under test pays there and reads its reports here, through one BLUEPAY_URL.

/** The document's version-1 columns, in its order (as the sandbox writes them). */
export const REPORT_COLUMNS = DAILY_REPORT_COLUMNS;

export type ReportRow = Partial<Record<(typeof REPORT_COLUMNS)[number], string>>;

export type ReportStandIn = {
  /** What BLUEPAY_URL points at (bp20post through to the sandbox). */
  bp20postUrl: string;
  /** The rows an account's report holds (replacing what it held). */
  setRows: (accountId: string, rows: ReportRow[]) => void;
  /** The form fields of each report request, in order. */
  requests: Record<string, string>[];
  close: () => Promise<void>;
};

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

function lineOf(row: ReportRow): string {
  return REPORT_COLUMNS.map((name) => (row[name] ?? "").replace(/,/g, "\\,")).join(",");
}

/** Whether the row's issue (or settlement) day is in [from, to). */
function inRange(row: ReportRow, fields: Record<string, string>): boolean {
  const stamp = fields.QUERY_BY_SETTLEMENT === "1" ? row.settle_date : row.issue_date;
  const day = (stamp ?? "").slice(0, 10);
  return day !== "" && day >= (fields.REPORT_START_DATE ?? "") && day < (fields.REPORT_END_DATE ?? "");
}

export async function startReportStandIn(
  sandboxUrl: string,
  accounts: readonly BluepayCredentials[],
): Promise<ReportStandIn> {
  const rows = new Map<string, ReportRow[]>();
  const requests: Record<string, string>[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      if (request.url === "/interfaces/bpdailyreport2") {
        const fields = Object.fromEntries(new URLSearchParams(body));
        requests.push(fields);
        const account = accounts.find((candidate) => candidate.accountId === fields.ACCOUNT_ID);
        const hashType = fields.TPS_HASH_TYPE ?? "MD5";
        const names = (fields.TPS_DEF ?? "ACCOUNT_ID REPORT_START_DATE REPORT_END_DATE").split(" ");
        const refuse = (message: string) => {
          response.writeHead(400, { "content-type": "text/plain" });
          response.end(`${message}\n`);
        };
        if (!account) return refuse("Unable to locate account");
        if (
          !isGatewayHashType(hashType) ||
          sealOf(account.secretKey, hashType, fields, names) !== fields.TAMPER_PROOF_SEAL
        )
          return refuse("SECURITY ERROR");
        const settled = fields.QUERY_BY_SETTLEMENT === "1";
        const selected = (rows.get(account.accountId) ?? []).filter(
          (row) => inRange(row, fields) && (!settled || (row.settle_date ?? "") !== ""),
        );
        response.writeHead(200, { "content-type": "text/plain" });
        response.end([REPORT_COLUMNS.join(","), ...selected.map(lineOf), ""].join("\r\n"));
        return;
      }
      const passed = await fetch(new URL(request.url ?? "/", sandboxUrl), {
        method: request.method,
        headers: { "content-type": request.headers["content-type"] ?? "application/x-www-form-urlencoded" },
        body: request.method === "GET" || request.method === "HEAD" ? undefined : body,
      });
      response.writeHead(passed.status, {
        "content-type": passed.headers.get("content-type") ?? "text/plain",
      });
      response.end(await passed.text());
    })().catch((error: unknown) => {
      response.writeHead(502, { "content-type": "text/plain" });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    bp20postUrl: `http://127.0.0.1:${port}/interfaces/bp20post`,
    setRows: (accountId, next) => rows.set(accountId, [...next]),
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
