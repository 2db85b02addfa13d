import type { ServerResponse } from "node:http";
import { BadControl, UnknownTransaction, type SandboxEvents } from "./sandbox-events.js";
import { sendJson } from "./sandbox-http.js";
import type { Notifier } from "./sandbox-notify.js";
import type { SandboxTransaction } from "./sandbox-transaction.js";

// The /sandbox/ test controls for what happens after the first answer (JSON in, JSON out): settle,
// return, charge back, reverse, notify of change, settle everything, where Trans Notify posts go,
// and lost answers. 200 with the records affected, 404 for an unknown TRANS_ID, 400 with {error}.

/** The records a control changed or added, copied; `transaction` is the one the control is about. */
export type ControlResult = { transaction?: SandboxTransaction; transactions: SandboxTransaction[] };

export type LoseAnswers = { count: number; stqNoMatchMs: number };

/**
 * Lost answers: the next `count` bp20post calls are done but their connection is cut before the
 * answer; stq then finds nothing for their ORDER_IDs (or, without one, their TRANS_IDs) until
 * `stqNoMatchMs` after each call, on the sandbox's clock.
 */
export function createLostAnswers(now: () => Date) {
  let left = 0;
  let windowMs = 0;
  const hiddenUntil = new Map<string, number>();
  return {
    set: (setting: LoseAnswers): LoseAnswers => {
      left = setting.count;
      windowMs = setting.stqNoMatchMs;
      return { count: left, stqNoMatchMs: windowMs };
    },
    current: (): LoseAnswers => ({ count: left, stqNoMatchMs: windowMs }),
    /** Whether this call's answer is to be lost (and counts it). */
    take: (): boolean => {
      if (left <= 0) return false;
      left -= 1;
      return true;
    },
    lost: (transaction: SandboxTransaction | undefined) => {
      if (!transaction) return;
      const until = now().getTime() + windowMs;
      if (transaction.orderId !== "") hiddenUntil.set(`order ${transaction.orderId}`, until);
      hiddenUntil.set(`id ${transaction.transId}`, until);
    },
    hides: (transaction: SandboxTransaction): boolean => {
      const at = now().getTime();
      const keys = [
        `id ${transaction.transId}`,
        ...(transaction.orderId ? [`order ${transaction.orderId}`] : []),
      ];
      return keys.some((key) => (hiddenUntil.get(key) ?? 0) > at);
    },
  };
}
export type LostAnswers = ReturnType<typeof createLostAnswers>;

function objectOf(body: string | null): Record<string, unknown> {
  if (body === null) throw new BadControl("body too large");
  if (body.trim() === "") return {};
  const value: unknown = JSON.parse(body);
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new BadControl("send a JSON object");
  return value as Record<string, unknown>;
}

function text(body: Record<string, unknown>, name: string, required: true): string;
function text(body: Record<string, unknown>, name: string, required?: false): string | undefined;
function text(body: Record<string, unknown>, name: string, required = false): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) {
    if (required) throw new BadControl(`${name} is required`);
    return undefined;
  }
  if (typeof value !== "string") throw new BadControl(`${name} must be a string`);
  return value;
}

function whole(body: Record<string, unknown>, name: string, max: number): number {
  const value = body[name];
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > max)
    throw new BadControl(`${name} must be a whole number from 0 to ${max}`);
  return value;
}

const copy = (records: SandboxTransaction[]): ControlResult => {
  const transactions = records.map((t) => ({ ...t }));
  return { ...(transactions[0] ? { transaction: transactions[0] } : {}), transactions };
};

export type ControlDeps = { events: SandboxEvents; notifier: Notifier; lost: LostAnswers };

const TRANSACTION_CONTROL =
  /^\/sandbox\/transactions\/(\d{1,20})\/(settle|return|chargeback|chargeback-reversal|noc)$/;

/** Handles a POST to a control path; false when the path is not one. */
export function handleControl(
  path: string,
  rawBody: string | null,
  response: ServerResponse,
  deps: ControlDeps,
): boolean {
  const { events, notifier, lost } = deps;
  const match = TRANSACTION_CONTROL.exec(path);
  const known = match || ["/sandbox/settle-all", "/sandbox/notify", "/sandbox/lose-answers"].includes(path);
  if (!known) return false;
  try {
    const body = objectOf(rawBody);
    if (match) {
      const [, transId = "", action] = match;
      const date = text(body, "date");
      const result =
        action === "settle"
          ? events.settle(transId, date)
          : action === "return"
            ? events.returnTransaction(transId, text(body, "code", true), date)
            : action === "chargeback"
              ? events.chargeback(transId, { code: text(body, "code"), reason: text(body, "reason"), date })
              : action === "chargeback-reversal"
                ? events.reverseChargeback(transId, date)
                : events.noc(transId, text(body, "code", true), text(body, "corrected", true), date);
      sendJson(response, 200, copy(result));
    } else if (path === "/sandbox/settle-all") {
      sendJson(response, 200, copy(events.settleAll(text(body, "date"))));
    } else if (path === "/sandbox/notify") {
      const url = body.url;
      if (url !== null && typeof url !== "string") throw new BadControl("url must be a string or null");
      try {
        notifier.setUrl(url);
      } catch {
        throw new BadControl("url must be an absolute http(s) URL");
      }
      sendJson(response, 200, { url: notifier.url() });
    } else {
      const setting = {
        count: whole(body, "count", 1_000_000),
        stqNoMatchMs: whole(body, "stqNoMatchMs", 86_400_000),
      };
      sendJson(response, 200, lost.set(setting));
    }
  } catch (error) {
    if (error instanceof UnknownTransaction) sendJson(response, 404, { error: error.message });
    else if (error instanceof BadControl || error instanceof SyntaxError)
      sendJson(response, 400, { error: error.message });
    else throw error;
  }
  return true;
}
