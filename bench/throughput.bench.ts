// API throughput under 50 concurrent connections (autocannon), against the real server process
// (apps/server/dist/main.js through e2e/support/server.ts, as `npm start` runs it, request logging included) on the benchmark
// client (bench-data.ts): the customer list, the transaction list, one customer, and one write
// (a payment posted to a different customer each time). Besides requests a second and latency, it
// prints the CPU time the server process (and on PostgreSQL the database's server processes) spent
// per request: unlike requests a second, that does not fall when other work loads the machine. The load generator runs in this process,
// on the same 2-core machine. Statistics are as the app leaves them: no manual VACUUM or ANALYZE
// (the server's start-up ANALYZE and periodic job on PGlite; autovacuum on PostgreSQL).
// Builds nothing: run `npm run build` first. Usage: npm run bench:throughput [-- --pglite-only |
// --postgres-only]; BENCH_SECONDS (default 10) per scenario, BENCH_CONNECTIONS (default 50),
// BENCH_WARMUP_SECONDS (default 3: unmeasured load before each scenario, while the server's JIT
// warms up), BENCH_ONLY=<part of a scenario's name>, BENCH_SERVER_LOG=<file for the server's log>,
// BENCH_CPU_PROF=<directory for the server's CPU profile>.
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { openDatabase, type DatabaseHandle } from "../apps/server/src/db/database.js";
import { queryRows } from "../apps/server/src/db/query-rows.js";
import { dbInt } from "../apps/server/src/db/row-schemas.js";
import { issueSessionToken } from "../apps/server/src/modules/auth/start-session.js";
import { startServer, type RunningServer } from "../e2e/support/server.js";
import { benchDataDir, ensureBenchData, postgresBenchHandle, SECRET } from "./bench-data.js";
import { cpuByProcess, cpuSpent, processCpuMs } from "./process-cpu.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** Seconds of load before each scenario's measured run, not counted (the server's JIT warms up). */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
/** Only the scenarios whose name contains this (profiling one of them). */
const ONLY = process.env.BENCH_ONLY;

/** backendUrl: the PostgreSQL database whose server processes' CPU time counts too. */
type Target = { label: string; env: Record<string, string>; backendUrl?: string };
type Scenario = {
  name: string;
  method?: "GET" | "POST";
  path: (index: number) => string;
  body?: (index: number) => string;
};

/** The built server (e2e's startServer) on the benchmark database, with the benchmark's secret. */
async function startBenchServer(target: Target): Promise<RunningServer> {
  const profile = process.env.BENCH_CPU_PROF;
  return startServer({
    startupTimeoutMs: 600_000,
    env: {
      ...target.env,
      HOST: "127.0.0.1",
      JWT_SECRET: SECRET,
      ADMIN_SECOND_FACTOR: "optional",
      BILLING_SECRETS_KEY: "bench",
    },
    nodeArgs: [
      ...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
      ...(profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : []),
    ],
  });
}

function scenarios(customerIds: number[], paymentCode: number): Scenario[] {
  // Customers that take postings: the generator archives some and marks others for deletion.
  const customer = (index: number) => customerIds[(index * 7919) % customerIds.length] ?? 0;
  return [
    { name: "customer list (15 rows)", path: () => "/api/customers/?limit=15" },
    { name: "transaction list (50 rows)", path: () => "/api/transactions/?limit=50" },
    {
      name: "one customer's transactions (50 rows)",
      path: (index) => `/api/transactions/?limit=50&customer__id=${customer(index)}`,
    },
    { name: "one customer", path: (index) => `/api/customers/${customer(index)}/` },
    {
      name: "post a payment (write)",
      method: "POST",
      path: () => "/api/transactions/",
      body: (index) =>
        JSON.stringify({
          customer: customer(index),
          code: paymentCode,
          description: "Bench payment",
          rate: "1.00",
          // The same payment twice on one day asks for confirmation; the bench confirms.
          force: true,
        }),
    },
  ];
}

async function load(baseUrl: string, token: string, scenario: Scenario, seconds = SECONDS) {
  let index = 0;
  const result = await autocannon({
    url: baseUrl,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    requests: [
      {
        method: scenario.method ?? "GET",
        setupRequest: (request) => {
          index += 1;
          return {
            ...request,
            path: scenario.path(index),
            ...(scenario.body ? { body: scenario.body(index) } : {}),
          };
        },
      },
    ],
  });
  return {
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result["2xx"],
    failed: result.non2xx + result.errors,
    timeouts: result.timeouts,
  };
}

/** The PostgreSQL server processes serving the benchmark database (the server's pool). */
async function backendProcesses(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    pids: async () => {
      const result = await client.query<{ pid: number }>(
        "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
      );
      return result.rows.map((row) => Number(row.pid));
    },
    close: () => client.end(),
  };
}

/** The benchmark client's payment code (null without one). */
const paymentCodeRowSchema = z.object({ payment: dbInt.nullable() });
const idRowSchema = z.object({ id: dbInt });

async function measure(target: Target, open: () => Promise<DatabaseHandle>): Promise<void> {
  // Generate (once) with our own connection, then leave the database to the server process.
  const handle = await open();
  const client = await ensureBenchData(handle, target.label);
  const [codes] = await queryRows(
    handle.db,
    sql`select min(id) as payment from codes where client_id = ${client.clientId} and code = 200`,
    paymentCodeRowSchema,
  );
  const active = await queryRows(
    handle.db,
    sql`select id from customers where client_id = ${client.clientId} and not deleted
          and coalesce(delete_flag, '') not in ('D', 'S') order by id`,
    idRowSchema,
  );
  // Its session is opened with our connection too (a token without one is refused).
  const token = await issueSessionToken(handle.db, SECRET, client.ownerUserId, {
    address: "127.0.0.1",
    userAgent: "bench",
  });
  await handle.close();
  const server = await startBenchServer(target);
  const { baseUrl } = server;
  const backends = target.backendUrl ? await backendProcesses(target.backendUrl) : undefined;
  try {
    console.log(
      `${target.label}: ${client.customers} customers / ${client.transactions} transactions, ` +
        `${CONNECTIONS} connections, ${SECONDS} s per scenario (load average ${loadavg()
          .map((value) => value.toFixed(2))
          .join(" ")})`,
    );
    const chosen = scenarios(
      active.map((row) => row.id),
      Number(codes?.payment),
    ).filter((scenario) => !ONLY || scenario.name.includes(ONLY));
    for (const scenario of chosen) {
      if (WARMUP_SECONDS > 0) await load(baseUrl, token, scenario, WARMUP_SECONDS);
      const serverBefore = server.pid ? processCpuMs(server.pid) : 0;
      const backendsBefore = cpuByProcess((await backends?.pids()) ?? []);
      const figures = await load(baseUrl, token, scenario);
      const serverMs = (server.pid ? processCpuMs(server.pid) : 0) - serverBefore;
      const backendMs = cpuSpent(backendsBefore, cpuByProcess((await backends?.pids()) ?? []));
      const requests = Math.max(1, figures.ok + figures.failed);
      console.log(
        `  ${scenario.name.padEnd(40)} ${figures.perSecond.toFixed(0).padStart(6)} req/s  ` +
          `p50 ${String(figures.p50).padStart(4)} ms  p99 ${String(figures.p99).padStart(5)} ms  ` +
          `${figures.ok} ok, ${figures.failed} failed, ${figures.timeouts} timed out; ` +
          `CPU per request: server ${(serverMs / requests).toFixed(2)} ms` +
          (backends ? `, PostgreSQL ${(backendMs / requests).toFixed(2)} ms` : "") +
          ` (load average ${loadavg()[0]?.toFixed(2)})`,
      );
    }
  } finally {
    await backends?.close();
    if (process.env.BENCH_SERVER_LOG) writeFileSync(process.env.BENCH_SERVER_LOG, server.logs());
    await server.stop();
  }
}

const args = new Set(process.argv.slice(2));
if (!args.has("--postgres-only")) {
  await measure({ label: "PGlite", env: { DATA_DIR: benchDataDir } }, () =>
    openDatabase({ kind: "pglite", dataDir: path.join(benchDataDir, "pglite") }),
  );
}
if (!args.has("--pglite-only")) {
  const handle = await postgresBenchHandle();
  const url = new URL(process.env.BENCH_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test");
  url.pathname = `/${process.env.BENCH_DATABASE_NAME ?? "cyclebill_bench"}`;
  await handle.close();
  await measure(
    {
      label: "PostgreSQL",
      env: { DATABASE_URL: url.toString(), WORKERS: "0" },
      backendUrl: url.toString(),
    },
    () => postgresBenchHandle(),
  );
}
