import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A stand-in for BluePay in front of the sandbox, over real HTTP, for what the sandbox cannot do:
// it forwards every call to the sandbox (so the charge really happens there) and then misbehaves
// as told: cuts the answer off, drops TRANS_ID, answers an undocumented STATUS, adds a BP_STAMP that
// does not verify, or shapes answers as the real gateway does by RESPONSEVERSION (without one:
// TRANS_ID, STATUS, AVS, CVV2, MESSAGE, REBID only; BP_STAMP from 3; STORED_ID from 8). Its stq
// can answer "no match" or a record of another order. It records every request's fields (the
// account number masked) so a test can see what was sent.

export type Misbehaviour =
  { kind: "lose" } | { kind: "no-trans-id" } | { kind: "odd-status"; status: string } | { kind: "bad-stamp" };

export type StqRule =
  { kind: "proxy" } | { kind: "no-match" } | { kind: "record"; fields: Record<string, string> };

export type MisbehavingGateway = {
  /** Point the app here (bp20post; stq sits beside it). */
  bp20postUrl: string;
  /** The next bp20post calls misbehave in this order; later ones are forwarded as they are. */
  next: (...misbehaviours: Misbehaviour[]) => void;
  stq: (rule: StqRule) => void;
  /** Shape answers as BluePay does by RESPONSEVERSION (with BP_STAMP keyed by these accounts' secrets). */
  realShaped: (secrets: Record<string, string> | null) => void;
  /** Every bp20post request's fields, oldest first (PAYMENT_ACCOUNT masked, no CVV). */
  requests: () => Record<string, string>[];
  close: () => Promise<void>;
};

const BASIC_FIELDS = ["TRANS_ID", "STATUS", "AVS", "CVV2", "MESSAGE", "REBID"];
const VERSION_FIELDS = ["AUTH_CODE", "PAYMENT_ACCOUNT_MASK", "CARD_TYPE", "TRANS_TYPE"];

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function encode(pairs: Array<[string, string]>): string {
  return pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&");
}

/** BluePay's BP_STAMP: HMAC-SHA512 (keyed with the secret) over the named values, upper-case hex. */
function stampOf(secret: string, pairs: Array<[string, string]>): string {
  return createHmac("sha512", secret)
    .update(pairs.map(([, value]) => value).join(""))
    .digest("hex")
    .toUpperCase();
}

function shape(
  answer: URLSearchParams,
  sent: URLSearchParams,
  secret: string | undefined,
): Array<[string, string]> {
  const version = Number(sent.get("RESPONSEVERSION") ?? "0");
  const kept = [
    ...BASIC_FIELDS,
    ...(sent.get("VERSION") ? VERSION_FIELDS : []),
    ...(version >= 8 ? ["STORED_ID"] : []),
  ];
  const pairs = kept
    .filter((name) => answer.has(name))
    .map((name): [string, string] => [name, answer.get(name) ?? ""]);
  if (version >= 3 && secret !== undefined)
    pairs.push(
      ["BP_STAMP", stampOf(secret, pairs)],
      ["BP_STAMP_DEF", pairs.map(([n]) => n).join(" ")],
      ["TPS_HASH_TYPE", "HMAC_SHA512"],
    );
  return pairs;
}

export async function startMisbehavingGateway(sandboxBp20postUrl: string): Promise<MisbehavingGateway> {
  const target = new URL(sandboxBp20postUrl);
  const queue: Misbehaviour[] = [];
  const seen: Record<string, string>[] = [];
  let stqRule: StqRule = { kind: "proxy" };
  let secrets: Record<string, string> | null = null;

  const forward = async (path: string, body: string) => {
    const response = await fetch(new URL(path, target), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    return { status: response.status, body: await response.text() };
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      const path = request.url ?? "/";
      if (path.endsWith("/stq") && stqRule.kind !== "proxy") {
        const pairs: Array<[string, string]> =
          stqRule.kind === "no-match"
            ? [["MESSAGE", "No transactions found"]]
            : Object.entries(stqRule.fields);
        response.writeHead(200, { "content-type": "application/x-www-form-urlencoded" }).end(encode(pairs));
        return;
      }
      const answer = await forward(path, body);
      if (!path.endsWith("/bp20post")) {
        response.writeHead(answer.status).end(answer.body);
        return;
      }
      const sent = new URLSearchParams(body);
      const account = sent.get("PAYMENT_ACCOUNT");
      const recorded = Object.fromEntries([...sent.entries()].filter(([name]) => name !== "CARD_CVV2"));
      if (account) recorded.PAYMENT_ACCOUNT = `xxxx${account.slice(-4)}`;
      seen.push(recorded);
      const fault = queue.shift();
      if (fault?.kind === "lose") {
        response.socket?.destroy();
        return;
      }
      const fields = new URLSearchParams(answer.body);
      let pairs: Array<[string, string]> = secrets
        ? shape(fields, sent, secrets[sent.get("ACCOUNT_ID") ?? ""])
        : [...fields.entries()];
      if (fault?.kind === "no-trans-id") pairs = pairs.map(([n, v]) => [n, n === "TRANS_ID" ? "" : v]);
      if (fault?.kind === "odd-status") pairs = pairs.map(([n, v]) => [n, n === "STATUS" ? fault.status : v]);
      if (fault?.kind === "bad-stamp")
        pairs = [
          ...pairs.filter(([n]) => !n.startsWith("BP_STAMP") && n !== "TPS_HASH_TYPE"),
          ["BP_STAMP", "0".repeat(128)],
          ["BP_STAMP_DEF", pairs.map(([n]) => n).join(" ")],
          ["TPS_HASH_TYPE", "HMAC_SHA512"],
        ];
      response
        .writeHead(answer.status, { "content-type": "application/x-www-form-urlencoded" })
        .end(encode(pairs));
    })().catch(() => response.socket?.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    bp20postUrl: `http://127.0.0.1:${port}${target.pathname}`,
    next: (...misbehaviours) => queue.push(...misbehaviours),
    stq: (rule) => {
      stqRule = rule;
    },
    realShaped: (given) => {
      secrets = given;
    },
    requests: () => [...seen],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
