// One-off PDFs over HTTP: `GET /api/statements/{id}/pdf/` and `GET /api/invoices/{id}/pdf/` under 50
// connections (autocannon) against the built server (`npm run build` first) on PostgreSQL, in a
// database of its own holding the demo data set (made afresh each run), as a staff user of the demo
// client with the most statements. Prints requests a second, p50/p99, and CPU per request of the
// server process and of PostgreSQL's processes. Target: ≥ 150 requests a second each.
import { loadavg } from "node:os";
import autocannon from "autocannon";
import pg from "pg";
import { signAccessTokenWithClaims } from "../apps/server/src/modules/auth/access-token.js";
import { startServer } from "../e2e/support/server.js";
import { cpuByProcess, cpuSpent, processCpuMs } from "./process-cpu.js";

const SECRET = "bench-pdf-requests-secret-0123456789abcdef0123456789abcdef";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const load = () =>
  loadavg()
    .map((figure) => figure.toFixed(2))
    .join(" ");

type Documents = { userId: number; statementIds: number[]; invoiceIds: number[] };

async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The demo client with the most statements, one of its staff, and its documents that have a PDF. */
/** A token and its session (the server refuses a token without one), opened over our own connection. */
async function signedInToken(url: string, userId: number): Promise<string> {
  const { token, claims } = await signAccessTokenWithClaims(SECRET, userId);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `insert into user_sessions (user_id, token_id, device, address, started_at, last_seen_at, expires_at)
       values ($1, $2, 'bench', '127.0.0.1', now(), now(), $3)`,
      [userId, claims.tokenId, claims.expiresAt],
    );
  } finally {
    await client.end();
  }
  return token;
}

async function documentsOf(url: string): Promise<Documents> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const chosen = await client.query<{ client_id: number; user_id: number }>(
      `select s.client_id, (select min(u.id) from users u where u.client_id = s.client_id and u.is_active) as user_id
         from statements s group by s.client_id order by count(*) desc limit 1`,
    );
    const row = chosen.rows[0];
    if (!row?.user_id) throw new Error("the demo data has no statements with a staff user");
    const statements = await client.query<{ id: number }>(
      "select id from statements where client_id = $1 order by id",
      [row.client_id],
    );
    const invoices = await client.query<{ id: number }>(
      "select id from invoices where client_id = $1 and invoice_status <> 'open' order by id",
      [row.client_id],
    );
    return {
      userId: Number(row.user_id),
      statementIds: statements.rows.map((r) => Number(r.id)),
      invoiceIds: invoices.rows.map((r) => Number(r.id)),
    };
  } finally {
    await client.end();
  }
}

async function backendPids(
  url: string,
): Promise<{ pids: () => Promise<number[]>; close: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    pids: async () =>
      (
        await client.query<{ pid: number }>(
          "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
        )
      ).rows.map((row) => Number(row.pid)),
    close: () => client.end(),
  };
}

async function hammer(baseUrl: string, token: string, paths: string[], seconds: number) {
  let index = 0;
  const result = await autocannon({
    url: baseUrl,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
    headers: { authorization: `Bearer ${token}` },
    requests: [
      {
        method: "GET",
        setupRequest: (request) => {
          index += 1;
          return { ...request, path: paths[index % paths.length] ?? paths[0] ?? "/" };
        },
      },
    ],
  });
  return result;
}

export async function measurePdfRequests(serverUrl: string): Promise<void> {
  const url = await freshDatabase(serverUrl, process.env.BENCH_PDF_DATABASE_NAME ?? "cyclebill_bench_pdf");
  const server = await startServer({
    demo: true,
    startupTimeoutMs: 600_000,
    env: {
      DATABASE_URL: url,
      WORKERS: "0",
      HOST: "127.0.0.1",
      JWT_SECRET: SECRET,
      ADMIN_SECOND_FACTOR: "optional",
      BILLING_SECRETS_KEY: "bench",
    },
  });
  const backends = await backendPids(url);
  try {
    const documents = await documentsOf(url);
    const token = await signedInToken(url, documents.userId);
    const kinds = [
      { name: "statement PDF", paths: documents.statementIds.map((id) => `/api/statements/${id}/pdf/`) },
      { name: "invoice PDF", paths: documents.invoiceIds.map((id) => `/api/invoices/${id}/pdf/`) },
    ];
    for (const kind of kinds) {
      if (kind.paths.length === 0) {
        console.log(`  ${kind.name}: the demo client has none`);
        continue;
      }
      await hammer(server.baseUrl, token, kind.paths, 3); // unmeasured: the JIT warms up
      const serverBefore = server.pid ? processCpuMs(server.pid) : 0;
      const backendsBefore = cpuByProcess(await backends.pids());
      const result = await hammer(server.baseUrl, token, kind.paths, SECONDS);
      const serverMs = (server.pid ? processCpuMs(server.pid) : 0) - serverBefore;
      const backendMs = cpuSpent(backendsBefore, cpuByProcess(await backends.pids()));
      const requests = Math.max(1, result["2xx"] + result.non2xx + result.errors);
      console.log(
        `  ${kind.name.padEnd(14)} (${kind.paths.length} documents): ${result.requests.average.toFixed(0)} req/s, ` +
          `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result["2xx"]} ok, ` +
          `${result.non2xx + result.errors} failed; CPU per request: server ${(serverMs / requests).toFixed(2)} ms, ` +
          `PostgreSQL ${(backendMs / requests).toFixed(2)} ms (load average ${load()})`,
      );
    }
  } finally {
    await backends.close();
    await server.stop();
  }
}
