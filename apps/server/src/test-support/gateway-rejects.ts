import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseFormEncoded } from "@cyclebill/domain";

// A stand-in in front of the gateway sandbox for tests of what the gateway reports later: every
// call goes through to the sandbox, except an stq lookup of a record the test put here (a
// return's or chargeback's REJECT record, or a settled sale, as BluePay's reports describe them;
// the sandbox on this branch keeps none yet). It records every stq lookup by id.

export type RejectStandIn = {
  bp20postUrl: string;
  /** A record stq answers by its id (lower-case stq fields: id, origin, master_id, auth_code…). */
  addRecord: (fields: Record<string, string>) => void;
  /** The ids asked for by stq, in order. */
  lookups: string[];
  close: () => Promise<void>;
};

function encode(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

export async function startRejectStandIn(sandboxBp20postUrl: string): Promise<RejectStandIn> {
  const sandboxBase = new URL("/", sandboxBp20postUrl);
  const records = new Map<string, Record<string, string>>();
  const lookups: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path = request.url ?? "/";
      if (path.endsWith("/stq")) {
        const id = parseFormEncoded(body).get("id") ?? "";
        if (id !== "") lookups.push(id);
        const record = records.get(id);
        if (record) {
          response.writeHead(200, { "content-type": "application/x-www-form-urlencoded" });
          response.end(encode(record));
          return;
        }
      }
      fetch(new URL(path, sandboxBase), {
        method: request.method ?? "POST",
        headers: { "content-type": request.headers["content-type"] ?? "application/x-www-form-urlencoded" },
        body,
      })
        .then(async (answer) => {
          response.writeHead(answer.status, {
            "content-type": answer.headers.get("content-type") ?? "text/plain",
          });
          response.end(await answer.text());
        })
        .catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    bp20postUrl: `http://127.0.0.1:${port}/interfaces/bp20post`,
    addRecord: (fields) => {
      if (fields.id) records.set(fields.id, fields);
    },
    lookups,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
