import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  STQ_FAULTS,
  createFaultPlan,
  type FaultDecision,
  type SandboxFaults,
  type StqFault,
} from "./fault-plan.js";
import { DEMO_ACCOUNT, LEGACY_DEMO_ACCOUNT } from "./sandbox-accounts.js";
import { isHashType } from "./sandbox-seal.js";
import { createSandboxBook } from "./sandbox-book.js";
import type { SandboxAccount, SandboxDelivery, SandboxTransaction } from "./sandbox-transaction.js";

// A local BluePay 2.0 gateway over real HTTP: POST /interfaces/bp20post (transactions) and
// POST /interfaces/stq (single-transaction query), as secure.bluepay.com serves them, plus a
// /sandbox/ control surface for tests and demos: the record of transactions, injected faults and
// accounts. It never logs, and keeps no card number or CVV (see card-checks).

export const BP20POST_PATH = "/interfaces/bp20post";
export const STQ_PATH = "/interfaces/stq";
export const DEFAULT_DUPLICATE_WINDOW_MS = 5_000;
const MAX_BODY_BYTES = 64 * 1024;

export type SandboxOptions = {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** 127.0.0.1 by default: a sandbox is nobody else's business. */
  host?: string;
  /** Accounts (ACCOUNT_ID and secret key) it accepts, besides DEMO_ACCOUNT. */
  accounts?: readonly SandboxAccount[];
  /** Accept DEMO_ACCOUNT (HMAC_SHA512) and LEGACY_DEMO_ACCOUNT (MD5) too (default true). */
  demoAccount?: boolean;
  /** How long an approved SALE/AUTH blocks the same account, amount and card as DUPLICATE. */
  duplicateWindowMs?: number;
  faults?: Partial<SandboxFaults>;
  /** The sandbox's clock (issue dates, the duplicate window, card expiry). */
  now?: () => Date;
  /** First TRANS_ID handed out (12 digits); random by default. */
  firstTransId?: string;
  /** Keep the record in this JSON file across restarts (masks and fingerprints only). */
  stateFile?: string;
};

export type Sandbox = {
  /** e.g. http://127.0.0.1:4010 */
  url: string;
  /** What BLUEPAY_URL points at. */
  bp20postUrl: string;
  stqUrl: string;
  port: number;
  transactions: () => SandboxTransaction[];
  faults: () => SandboxFaults;
  setFaults: (changes: Partial<SandboxFaults>) => SandboxFaults;
  addAccount: (account: SandboxAccount) => void;
  close: () => Promise<void>;
};

type StateFile = { transactions: SandboxTransaction[] };

function loadState(file: string | undefined): SandboxTransaction[] {
  if (!file || !existsSync(file)) return [];
  const state = JSON.parse(readFileSync(file, "utf8")) as Partial<StateFile>;
  if (!Array.isArray(state.transactions)) throw new Error(`${file} is not a gateway sandbox state file`);
  return state.transactions;
}

function saveState(file: string, transactions: SandboxTransaction[]): void {
  const state: StateFile = { transactions };
  writeFileSync(`${file}.tmp`, JSON.stringify(state), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

/** The body, or null past the size limit. */
async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Form fields, the first value of a repeated name winning. */
function formFields(body: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(body)) if (!fields.has(name)) fields.set(name, value);
  return fields;
}

function send(response: ServerResponse, status: number, body: string, type = "text/plain; charset=utf-8") {
  response.writeHead(status, { "content-type": type, "cache-control": "no-store" });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, value: unknown) {
  send(response, status, JSON.stringify(value), "application/json");
}

// What a query answers under each stq fault (null: held, never answered).
const STQ_FAULT_ANSWERS: Record<StqFault, { status: number; body: string; type: string } | null> = {
  none: { status: 200, body: "", type: "text/plain" },
  html: {
    status: 200,
    body: "<html><head><title>Maintenance</title></head><body>Back soon.</body></html>",
    type: "text/html; charset=utf-8",
  },
  "bad-gateway": { status: 502, body: "502 Bad Gateway", type: "text/plain; charset=utf-8" },
  "unknown-shape": { status: 200, body: "result=ok&rows=0", type: "text/plain; charset=utf-8" },
  "server-error": {
    status: 500,
    body: "MESSAGE=No%20transactions%20found",
    type: "text/plain; charset=utf-8",
  },
  hang: null,
};

const DELIVERY: Record<FaultDecision, SandboxDelivery> = { answer: "sent", drop: "dropped", hang: "held" };
const FAULT_KEYS = ["latencyMs", "dropRate", "hangRate", "seed"] as const;

function faultChanges(value: unknown): Partial<SandboxFaults> {
  if (typeof value !== "object" || value === null) throw new Error("send a JSON object of faults");
  const changes: Partial<SandboxFaults> = {};
  for (const key of FAULT_KEYS) {
    const given: unknown = (value as Record<string, unknown>)[key];
    if (given === undefined) continue;
    if (typeof given !== "number") throw new Error(`${key} must be a number`);
    changes[key] = given;
  }
  const stqFault: unknown = (value as Record<string, unknown>).stqFault;
  if (stqFault !== undefined) {
    if (typeof stqFault !== "string" || !(STQ_FAULTS as readonly string[]).includes(stqFault))
      throw new Error(`stqFault must be one of ${STQ_FAULTS.join(", ")}`);
    changes.stqFault = stqFault as StqFault;
  }
  return changes;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? (() => new Date());
  const book = createSandboxBook({
    accounts: [
      ...(options.demoAccount === false ? [] : [DEMO_ACCOUNT, LEGACY_DEMO_ACCOUNT]),
      ...(options.accounts ?? []),
    ],
    duplicateWindowMs: options.duplicateWindowMs ?? DEFAULT_DUPLICATE_WINDOW_MS,
    now,
    firstTransId: options.firstTransId,
    transactions: loadState(options.stateFile),
  });
  const plan = createFaultPlan(options.faults);
  const waits = new Set<{ timer: NodeJS.Timeout; done: () => void }>();
  let closing = false;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const entry = { timer: setTimeout(() => finish(), ms), done: () => finish() };
      const finish = () => {
        clearTimeout(entry.timer);
        waits.delete(entry);
        resolve();
      };
      waits.add(entry);
    });

  async function gateway(request: IncomingMessage, response: ServerResponse, path: string) {
    const body = await readBody(request);
    if (body === null) return send(response, 413, "Request too large");
    // The fault is drawn first and the work done regardless: a dropped sale is still a sale.
    const decision = plan.decide();
    const fields = formFields(body);
    const answer = path === BP20POST_PATH ? book.post(fields, DELIVERY[decision]) : book.query(fields);
    // Copying the record costs as much as it holds: only when there is a file to keep it in.
    if (path === BP20POST_PATH && options.stateFile) saveState(options.stateFile, book.transactions());
    const { latencyMs } = plan.current();
    if (latencyMs > 0) await wait(latencyMs);
    if (closing || response.destroyed) return;
    if (decision === "drop") return request.socket.destroy();
    // Held: never answered; the client gives up, or close() ends the connection.
    if (decision === "hang") return;
    const { stqFault } = plan.current();
    if (path === STQ_PATH && stqFault !== "none") {
      const faulty = STQ_FAULT_ANSWERS[stqFault];
      if (faulty === null) return;
      return send(response, faulty.status, faulty.body, faulty.type);
    }
    send(response, answer.httpStatus, answer.body);
  }

  async function control(request: IncomingMessage, response: ServerResponse, path: string) {
    if (path === "/sandbox/transactions" && request.method === "GET")
      return sendJson(response, 200, { transactions: book.transactions() });
    if (path === "/sandbox/faults" && request.method === "GET")
      return sendJson(response, 200, plan.current());
    if ((path === "/sandbox/faults" || path === "/sandbox/accounts") && request.method === "POST") {
      const body = await readBody(request);
      try {
        const value: unknown = JSON.parse(body ?? "");
        if (path === "/sandbox/faults") return sendJson(response, 200, plan.set(faultChanges(value)));
        const { accountId, secretKey, hashType } = (value ?? {}) as Record<string, unknown>;
        if (typeof accountId !== "string" || typeof secretKey !== "string")
          throw new Error("send {accountId, secretKey} as strings");
        if (hashType !== undefined && (typeof hashType !== "string" || !isHashType(hashType)))
          throw new Error("hashType must be HMAC_SHA512, HMAC_SHA256, SHA512, SHA256 or MD5");
        book.addAccount({ accountId, secretKey, ...(hashType ? { hashType } : {}) });
        return send(response, 204, "");
      } catch (error) {
        return sendJson(response, 400, { error: error instanceof Error ? error.message : String(error) });
      }
    }
    send(response, 404, "Not found");
  }

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://sandbox").pathname;
    const isGateway = request.method === "POST" && (path === BP20POST_PATH || path === STQ_PATH);
    const work = isGateway ? gateway(request, response, path) : control(request, response, path);
    work.catch(() => {
      if (!response.headersSent) send(response, 500, "Sandbox error");
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port, address } = server.address() as AddressInfo;
  const url = `http://${address.includes(":") ? `[${address}]` : address}:${port}`;

  return {
    url,
    bp20postUrl: url + BP20POST_PATH,
    stqUrl: url + STQ_PATH,
    port,
    transactions: () => book.transactions(),
    faults: () => plan.current(),
    setFaults: (changes) => plan.set(changes),
    addAccount: (account) => book.addAccount(account),
    close: async () => {
      closing = true;
      for (const entry of [...waits]) entry.done();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
