import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

// BluePay's daily report (bpdailyreport2) for the browser test, until the sandbox serves it: a
// first line of column names, then the rows the test set whose issue (or, with
// QUERY_BY_SETTLEMENT=1, settlement) day is in the request's range. Other paths pass through to the
// gateway sandbox. The API tests' stand-in (apps/server/src/test-support) also checks the seal.

const COLUMNS = ["id", "payment_type", "trans_type", "amount", "order_id", "master_id", "status", "f_void"];
const MORE = ["message", "origin", "issue_date", "settle_date", "settlement_id", "auth_code"];

export type ReportRow = Record<string, string>;

export type ReportStandIn = {
  bp20postUrl: string;
  setRows: (rows: ReportRow[]) => void;
  close: () => Promise<void>;
};

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startReportStandIn(sandboxUrl: string): Promise<ReportStandIn> {
  let rows: ReportRow[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      if (request.url === "/interfaces/bpdailyreport2") {
        const fields = Object.fromEntries(new URLSearchParams(body));
        const from = fields.REPORT_START_DATE ?? "";
        const to = fields.REPORT_END_DATE ?? "";
        const bySettlement = fields.QUERY_BY_SETTLEMENT === "1";
        const selected = rows.filter((row) => {
          const day = ((bySettlement ? row.settle_date : row.issue_date) ?? "").slice(0, 10);
          return day !== "" && day >= from && day < to;
        });
        const columns = [...COLUMNS, ...MORE];
        const lines = selected.map((row) =>
          columns.map((name) => (row[name] ?? "").replace(/,/g, "\\,")).join(","),
        );
        response.writeHead(200, { "content-type": "text/plain" });
        response.end([columns.join(","), ...lines, ""].join("\r\n"));
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
    setRows: (next) => {
      rows = [...next];
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
