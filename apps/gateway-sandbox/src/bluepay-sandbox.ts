import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { BP10EMU_PATH, bp10emu } from "./bp10emu.js";
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
import {
  createLostAnswers,
  handleControl,
  type ControlResult,
  type LoseAnswers,
} from "./sandbox-controls.js";
import { createSandboxEvents } from "./sandbox-events.js";
import { formFields, readBody, send, sendJson } from "./sandbox-http.js";
import { createNotifier } from "./sandbox-notify.js";
import { bpDailyReport2, bvDailyReport2 } from "./sandbox-reports.js";
import type { SandboxAccount, SandboxDelivery, SandboxTransaction } from "./sandbox-transaction.js";

// A local BluePay 2.0 gateway over real HTTP: POST /interfaces/bp20post and /interfaces/bp10emu
// (transactions), /interfaces/stq (single-transaction query) and the daily reports
// (/interfaces/bpdailyreport2, /interfaces/bvdailyreport2), as BluePay serves them, plus a
// /sandbox/ control surface for tests and demos: the record of transactions, injected faults,
// accounts, settlements, returns, chargebacks, NOCs, Trans Notify posts and lost answers
// (docs/gateway-sandbox.md). It never logs, and keeps no card number or CVV (see card-checks).

export const BP20POST_PATH = "/interfaces/bp20post";
export const STQ_PATH = "/interfaces/stq";
export const BPDAILYREPORT2_PATH = "/interfaces/bpdailyreport2";
export const BVDAILYREPORT2_PATH = "/interfaces/bvdailyreport2";
export { BP10EMU_PATH };
export const DEFAULT_DUPLICATE_WINDOW_MS = 5_000;

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
  /** Settles an approved sale or refund (date: YYYY-MM-DD, the sandbox's today by default). */
  settle: (transId: string, date?: string) => ControlResult;
  /** Returns an ACH sale with a reason code (R01...). */
  returnTransaction: (transId: string, code: string, date?: string) => ControlResult;
  chargeback: (transId: string, details?: { code?: string; reason?: string; date?: string }) => ControlResult;
  /** Reverses the open chargeback of a sale (its TRANS_ID or the chargeback's). */
  reverseChargeback: (transId: string, date?: string) => ControlResult;
  /** A notification of change (C01..C07) with the corrected data. */
  noc: (transId: string, code: string, corrected: string, date?: string) => ControlResult;
  /** Settles every approved, unsettled sale and refund issued up to that day. */
  settleAll: (date?: string) => ControlResult;
  /** Where Trans Notify posts go (null: nowhere). */
  setNotifyUrl: (url: string | null) => void;
  /** Resolves once every Trans Notify post so far was delivered or given up. */
  notifyIdle: () => Promise<void>;
  loseAnswers: (setting: LoseAnswers) => LoseAnswers;
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
  // The notifier reads accounts from the book, which tells the notifier of its events.
  let accountOf: (accountId: string) => SandboxAccount | undefined = () => undefined;
  const notifier = createNotifier((accountId) => accountOf(accountId));
  const book = createSandboxBook({
    accounts: [
      ...(options.demoAccount === false ? [] : [DEMO_ACCOUNT, LEGACY_DEMO_ACCOUNT]),
      ...(options.accounts ?? []),
    ],
    duplicateWindowMs: options.duplicateWindowMs ?? DEFAULT_DUPLICATE_WINDOW_MS,
    now,
    firstTransId: options.firstTransId,
    transactions: loadState(options.stateFile),
    onEvent: (event) => notifier.send(event),
  });
  accountOf = book.store.account;
  const events = createSandboxEvents(book.store);
  const lost = createLostAnswers(now);
  const plan = createFaultPlan(options.faults);
  const waits = new Set<{ timer: NodeJS.Timeout; done: () => void }>();
  let closing = false;
  // Copying the record costs as much as it holds: only when there is a file to keep it in.
  const save = () => {
    if (options.stateFile) saveState(options.stateFile, book.transactions());
  };

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
    let decision = plan.decide();
    const fields = formFields(body);
    let answer: { status: number; body: string; type?: string; location?: string };
    if (path === BP20POST_PATH) {
      const losing = lost.take();
      if (losing) decision = "drop";
      const posted = book.post(fields, DELIVERY[decision]);
      if (losing) lost.lost(posted.transaction);
      answer = { status: posted.answer.httpStatus, body: posted.answer.body };
      save();
    } else if (path === BP10EMU_PATH) {
      const { location } = bp10emu(book, fields, DELIVERY[decision], url);
      answer = { status: 302, body: "", location };
      save();
    } else if (path === STQ_PATH) {
      const queried = book.query(fields, lost.hides);
      answer = { status: queried.httpStatus, body: queried.body };
    } else {
      const report =
        path === BPDAILYREPORT2_PATH ? bpDailyReport2(book, fields) : bvDailyReport2(book, fields);
      answer = { status: report.httpStatus, body: report.body, type: report.type };
    }
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
    if (answer.location !== undefined) {
      response.writeHead(302, { location: answer.location, "cache-control": "no-store" });
      return response.end();
    }
    send(response, answer.status, answer.body, answer.type);
  }

  async function control(request: IncomingMessage, response: ServerResponse, path: string) {
    if (path === "/sandbox/transactions" && request.method === "GET")
      return sendJson(response, 200, { transactions: book.transactions() });
    if (path === "/sandbox/faults" && request.method === "GET")
      return sendJson(response, 200, plan.current());
    if (path === "/sandbox/notify" && request.method === "GET")
      return sendJson(response, 200, { url: notifier.url() });
    if (path === "/sandbox/lose-answers" && request.method === "GET")
      return sendJson(response, 200, lost.current());
    if (request.method === "POST" && path !== "/sandbox/faults" && path !== "/sandbox/accounts") {
      const body = await readBody(request);
      if (handleControl(path, body, response, { events, notifier, lost })) return save();
      return send(response, 404, "Not found");
    }
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

  const GATEWAY_PATHS = [BP20POST_PATH, STQ_PATH, BP10EMU_PATH, BPDAILYREPORT2_PATH, BVDAILYREPORT2_PATH];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://sandbox").pathname;
    const isGateway = request.method === "POST" && GATEWAY_PATHS.includes(path);
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
  // In-process controls answer as the HTTP ones do: copies of the records affected.
  const done = (records: SandboxTransaction[]): ControlResult => {
    save();
    const transactions = records.map((t) => ({ ...t }));
    return { ...(transactions[0] ? { transaction: transactions[0] } : {}), transactions };
  };

  return {
    url,
    bp20postUrl: url + BP20POST_PATH,
    stqUrl: url + STQ_PATH,
    port,
    transactions: () => book.transactions(),
    faults: () => plan.current(),
    setFaults: (changes) => plan.set(changes),
    addAccount: (account) => book.addAccount(account),
    settle: (transId, date) => done(events.settle(transId, date)),
    returnTransaction: (transId, code, date) => done(events.returnTransaction(transId, code, date)),
    chargeback: (transId, details) => done(events.chargeback(transId, details)),
    reverseChargeback: (transId, date) => done(events.reverseChargeback(transId, date)),
    noc: (transId, code, corrected, date) => done(events.noc(transId, code, corrected, date)),
    settleAll: (date) => done(events.settleAll(date)),
    setNotifyUrl: (target) => notifier.setUrl(target),
    notifyIdle: () => notifier.idle(),
    loseAnswers: (setting) => lost.set(setting),
    close: async () => {
      closing = true;
      notifier.close();
      for (const entry of [...waits]) entry.done();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
