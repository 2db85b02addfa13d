// Mixed traffic against one API process on PostgreSQL (issue 18, "Load"): an open-loop schedule
// (load-schedule.ts) of a weighted mix (load-mix.ts) — customer lists and searches, transaction lists,
// one customer, postings, statement PDFs, and public pay-link lookups — sent to the real built server
// (apps/server/dist/main.js through e2e/support/server.ts, WORKERS=0, request logging on) on its own
// database: the 50,000-customer benchmark client (bench-data.ts) plus a 2,000-customer client billed
// by a real production run for the pay codes and PDFs (load-setup.ts), made once (about 2 minutes).
// The server trusts 127.0.0.1 as a proxy and each payer's lookup carries its own X-Forwarded-For
// address: customers pay from their own addresses, and the per-address lookup limit stays per payer.
// Prints per call count, errors, p50 and p99 (ms, from each request's due time); the achieved rate;
// errors (non-2xx, resets, time-outs, shed) which must be 0; the server's RSS after the warm-up, every
// minute and at the end, which must stay flat; CPU per request of the server and of PostgreSQL's
// processes, and the load average. Exit code 1 on any error or when the RSS grew by more than
// --max-growth-mb (default 64: see docs/load.md). Builds nothing: run `npm run build` first.
//
// Usage: npm run load [-- --rate 500 --minutes 15 --connections 100 --warmup 20 --only <call>]
//   --rate         requests a second (default 500)
//   --minutes      measured minutes (default 15; fractions allowed)
//   --connections  requests in flight at most (default 100); more wait (their wait counts)
//   --backlog      due requests waiting past which new ones are shed as errors (default 2 s of rate)
//   --warmup       unmeasured seconds at the same rate first (default 20)
//   --only         only the calls whose name contains this (what one kind costs alone)
//   --max-growth-mb  RSS growth, start to end, that fails the run (default 64)
// Environment: BENCH_DATABASE_URL (server; default the local test server), BENCH_DATABASE_NAME
// (default load_bench), BENCH_SERVER_LOG=<file for the server's log>.
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { issueSessionToken } from "../apps/server/src/modules/auth/start-session.js";
import { startServer } from "../e2e/support/server.js";
import { SECRET, ensureBenchData, postgresBenchHandle } from "./bench-data.js";
import { callPicker, loadMix, type Caller } from "./load-mix.js";
import { printCalls, printMemory, rssMb } from "./load-report.js";
import { runSchedule } from "./load-schedule.js";
import { ensureLoadTargets } from "./load-setup.js";
import { trackBackendCpu } from "./load-backend-cpu.js";
import { processCpuMs } from "./process-cpu.js";

const { values: flags } = parseArgs({
  options: {
    rate: { type: "string", default: "500" },
    minutes: { type: "string", default: "15" },
    connections: { type: "string", default: "100" },
    backlog: { type: "string" },
    warmup: { type: "string", default: "20" },
    only: { type: "string" },
    "max-growth-mb": { type: "string", default: "64" },
  },
});
const RATE = Number(flags.rate);
const SECONDS = Math.round(Number(flags.minutes) * 60);
const CONNECTIONS = Number(flags.connections);
const BACKLOG = Number(flags.backlog ?? 2 * RATE);
const WARMUP = Number(flags.warmup);
const MAX_GROWTH_MB = Number(flags["max-growth-mb"]);
process.env.BENCH_DATABASE_NAME ??= "load_bench";
const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

const handle = await postgresBenchHandle();
const bench = await ensureBenchData(handle, "PostgreSQL");
const targets = await ensureLoadTargets(handle, bench.clientId, bench.customers);
// Each token's session is opened before our connection closes (a token without one is refused).
const benchToken = await issueSessionToken(handle.db, SECRET, bench.ownerUserId, {
  address: "127.0.0.1",
  userAgent: "bench",
});
const payersToken = await issueSessionToken(handle.db, SECRET, targets.payersOwnerUserId, {
  address: "127.0.0.1",
  userAgent: "bench",
});
await handle.close();
const url = new URL(process.env.BENCH_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test");
url.pathname = `/${process.env.BENCH_DATABASE_NAME}`;

const tokens: Record<Caller, string | undefined> = {
  bench: benchToken,
  payers: payersToken,
  public: undefined,
};
// --only: the call of exactly that name, else every call whose name contains it.
const mix = loadMix(targets);
const calls = mix.some((call) => call.name === flags.only)
  ? mix.filter((call) => call.name === flags.only)
  : mix.filter((call) => !flags.only || call.name.includes(flags.only));
if (calls.length === 0) throw new Error(`--only ${flags.only}: no such call`);
const pick = callPicker(calls);
const headers = (request: { caller: Caller; body?: string }, index: number): Record<string, string> => {
  const token = tokens[request.caller];
  return {
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(request.body ? { "content-type": "application/json" } : {}),
    // Payers come from many addresses: each lookup its own (10.x.y.z from the request's index).
    ...(request.caller === "public"
      ? { "x-forwarded-for": `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}` }
      : {}),
  };
};

// BENCH_CPU_PROF=<directory>: the server's CPU profile (a .cpuprofile written when it stops).
const profile = process.env.BENCH_CPU_PROF;
const server = await startServer({
  startupTimeoutMs: 600_000,
  nodeArgs: profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : [],
  env: {
    DATABASE_URL: url.toString(),
    WORKERS: "0",
    HOST: "127.0.0.1",
    JWT_SECRET: SECRET,
    ADMIN_SECOND_FACTOR: "optional",
    BILLING_SECRETS_KEY: "bench",
    TRUST_PROXY: "127.0.0.1",
  },
});

let failed = false;
try {
  const pid = server.pid ?? 0;
  const totalWeight = calls.reduce((sum, call) => sum + call.weight, 0);
  console.log(
    `Load on PostgreSQL (${process.env.BENCH_DATABASE_NAME}): ${bench.customers} customers / ` +
      `${bench.transactions} entries, ${targets.payTokens.length} payable statements; ${RATE} req/s for ` +
      `${SECONDS} s after ${WARMUP} s warm-up, at most ${CONNECTIONS} in flight, ${BACKLOG} waiting; ` +
      `load average ${load()}`,
  );
  console.log(
    `  mix: ${calls.map((call) => `${call.name} ${((100 * call.weight) / totalWeight).toFixed(0)}%`).join(", ")}`,
  );
  const schedule = {
    baseUrl: server.baseUrl,
    rate: RATE,
    connections: CONNECTIONS,
    backlog: BACKLOG,
    pick,
    headers,
    timeoutMs: 10_000,
  };
  if (WARMUP > 0) {
    const warm = await runSchedule({ ...schedule, seconds: WARMUP });
    const warmErrors = [...warm.byCall.values()].reduce(
      (sum, figures) => sum + Object.values(figures.errors).reduce((a, b) => a + b, 0),
      0,
    );
    console.log(
      `  warm-up: ${warm.completed} requests, ${warmErrors} errors${warm.firstErrors.length ? ` (${warm.firstErrors[0]})` : ""}`,
    );
  }
  const samples = [{ seconds: 0, rssMb: rssMb(pid) }];
  const serverBefore = processCpuMs(pid);
  const backends = await trackBackendCpu(url.toString());
  const sampler = setInterval(
    () => samples.push({ seconds: samples.length * 10, rssMb: rssMb(pid) }),
    10_000,
  );
  const result = await runSchedule({
    ...schedule,
    seconds: SECONDS,
    everySeconds: 60,
    onWindow: (window) =>
      console.log(
        `  ${window.elapsedSeconds.toFixed(0).padStart(4)} s: ${(window.completed / 60).toFixed(0)} req/s, ` +
          `${window.errors} errors, p99 ${window.p99.toFixed(0)} ms, server RSS ${rssMb(pid).toFixed(0)} MB, ` +
          `load average ${load()}`,
      ),
  });
  clearInterval(sampler);
  samples.push({ seconds: Math.round(result.seconds), rssMb: rssMb(pid) });
  const serverMs = processCpuMs(pid) - serverBefore;
  const backendMs = await backends.stop();

  const errors = printCalls(result);
  // Shed requests never reached the server: they cost it nothing.
  const shed = [...result.byCall.values()].reduce((sum, figures) => sum + figures.errors.shed, 0);
  const answered = Math.max(1, result.completed - shed);
  console.log(
    `  CPU per answered request (${answered}): server ${(serverMs / answered).toFixed(2)} ms, PostgreSQL ` +
      `${(backendMs / answered).toFixed(2)} ms (server ${((100 * serverMs) / 1000 / result.seconds).toFixed(0)}% ` +
      `of a core, PostgreSQL ${((100 * backendMs) / 1000 / result.seconds).toFixed(0)}%); load average ${load()}`,
  );
  const growth = printMemory(samples);
  for (const message of result.firstErrors) console.log(`  error: ${message}`);
  if (errors > 0) {
    console.log(`FAIL: ${errors} errors (must be 0)`);
    failed = true;
  }
  if (growth > MAX_GROWTH_MB) {
    console.log(`FAIL: server RSS grew ${growth.toFixed(0)} MB (more than ${MAX_GROWTH_MB} MB)`);
    failed = true;
  }
  if (!failed) console.log("PASS: 0 errors, memory flat");
} finally {
  if (process.env.BENCH_SERVER_LOG) writeFileSync(process.env.BENCH_SERVER_LOG, server.logs());
  await server.stop();
}
process.exitCode = failed ? 1 : 0;
