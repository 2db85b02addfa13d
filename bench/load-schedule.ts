// An open-loop load generator: request i is due at start + i / rate whatever the server's speed, and
// its latency is measured from that due time, not from when a connection was free. A server that
// falls behind shows up in the tail (no coordinated omission). At most `connections` requests are
// in flight; the rest wait in line (their wait counts) and past `backlog` waiting ones a due
// request is shed and counted as an error, so a stalled server cannot grow this process without end.
import http from "node:http";
import { performance } from "node:perf_hooks";
import type { Call, CallName, LoadRequest } from "./load-mix.js";

export type ScheduleOptions = {
  baseUrl: string;
  rate: number;
  seconds: number;
  connections: number;
  backlog: number;
  timeoutMs: number;
  pick: (index: number) => Call;
  headers: (request: LoadRequest, index: number) => Record<string, string>;
  /** Called about every `everySeconds` with the figures of the seconds just past. */
  onWindow?: (window: WindowFigures) => void;
  everySeconds?: number;
};

export type ErrorKind = "status" | "network" | "timeout" | "shed";

export type CallFigures = {
  latencies: number[];
  errors: Record<ErrorKind, number>;
  statuses: Map<number, number>;
};

export type WindowFigures = { elapsedSeconds: number; completed: number; errors: number; p99: number };

export type ScheduleResult = {
  byCall: Map<CallName, CallFigures>;
  sent: number;
  completed: number;
  seconds: number;
  /** Largest number of due requests waiting for a connection at once. */
  maxWaiting: number;
  firstErrors: string[];
};

export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

function emptyFigures(): CallFigures {
  return { latencies: [], errors: { status: 0, network: 0, timeout: 0, shed: 0 }, statuses: new Map() };
}

/** Sends one request; resolves with its status, or the kind of failure. */
function send(
  agent: http.Agent,
  url: URL,
  request: LoadRequest,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<{ status: number; detail: string } | { failure: "network" | "timeout"; message: string }> {
  return new Promise((resolve) => {
    const outgoing = http.request(
      url,
      { method: request.method, agent, headers, timeout: timeoutMs },
      (response) => {
        const status = response.statusCode ?? 0;
        // Read the whole body: the call is done when its last byte is in. A failure's text is kept.
        let detail = "";
        response.on("data", (chunk: Buffer) => {
          if (status >= 300 && detail.length < 300) detail += chunk.toString("utf8");
        });
        response.on("end", () => resolve({ status, detail: detail.slice(0, 300) }));
        response.on("error", (error) => resolve({ failure: "network", message: error.message }));
      },
    );
    outgoing.on("timeout", () => {
      outgoing.destroy(new Error("timed out"));
      resolve({
        failure: "timeout",
        message: `${request.method} ${request.path}: no answer in ${timeoutMs} ms`,
      });
    });
    outgoing.on("error", (error) =>
      resolve({ failure: "network", message: `${request.method} ${request.path}: ${error.message}` }),
    );
    outgoing.end(request.body);
  });
}

export async function runSchedule(options: ScheduleOptions): Promise<ScheduleResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const byCall = new Map<CallName, CallFigures>();
  const figuresOf = (name: CallName) => {
    let figures = byCall.get(name);
    if (!figures) byCall.set(name, (figures = emptyFigures()));
    return figures;
  };
  const firstErrors: string[] = [];
  const total = Math.round(options.rate * options.seconds);
  const intervalMs = 1000 / options.rate;
  let sent = 0;
  let completed = 0;
  let inFlight = 0;
  let maxWaiting = 0;
  let window = { latencies: [] as number[], errors: 0 };
  const everyMs = (options.everySeconds ?? 60) * 1000;
  const start = performance.now();
  let nextWindow = start + everyMs;

  const record = (call: Call, latency: number, error: ErrorKind | undefined, message?: string) => {
    const figures = figuresOf(call.name);
    completed += 1;
    if (error) {
      figures.errors[error] += 1;
      window.errors += 1;
      if (message && firstErrors.length < 10) firstErrors.push(`${call.name}: ${message}`);
    } else {
      figures.latencies.push(latency);
      window.latencies.push(latency);
    }
  };

  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      // Every request due by now goes out, each stamped with its own due time.
      while (sent < total && start + sent * intervalMs <= now) {
        const index = sent;
        const due = start + index * intervalMs;
        const call = options.pick(index);
        sent += 1;
        if (inFlight >= options.connections + options.backlog) {
          record(call, 0, "shed", "shed: too many requests waiting for a connection");
          continue;
        }
        inFlight += 1;
        maxWaiting = Math.max(maxWaiting, inFlight - options.connections);
        const request = call.request(index);
        void send(
          agent,
          new URL(request.path, options.baseUrl),
          request,
          options.headers(request, index),
          options.timeoutMs,
        ).then((outcome) => {
          inFlight -= 1;
          const latency = performance.now() - due;
          if ("failure" in outcome) record(call, latency, outcome.failure, outcome.message);
          else {
            const statuses = figuresOf(call.name).statuses;
            statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
            const ok = outcome.status >= 200 && outcome.status < 300;
            record(
              call,
              latency,
              ok ? undefined : "status",
              ok
                ? undefined
                : `HTTP ${outcome.status} ${request.method} ${request.path} ${request.body ?? ""} ${outcome.detail}`,
            );
          }
          if (sent >= total && inFlight === 0) resolve();
        });
      }
      if (now >= nextWindow && options.onWindow) {
        const sorted = window.latencies.sort((a, b) => a - b);
        options.onWindow({
          elapsedSeconds: (now - start) / 1000,
          completed: sorted.length + window.errors,
          errors: window.errors,
          p99: percentile(sorted, 0.99),
        });
        window = { latencies: [], errors: 0 };
        nextWindow += everyMs;
      }
      if (sent < total) setTimeout(tick, 1);
      else if (inFlight === 0) resolve();
    };
    tick();
  });
  agent.destroy();
  return { byCall, sent, completed, seconds: (performance.now() - start) / 1000, maxWaiting, firstErrors };
}
