// Account Reports and the Home card on the benchmark client (50,000 customers, 1,000,000 postings):
// the Account Register of the last full month of its ledger streamed over HTTP (time to the first
// byte and to the last, bytes, and the process's memory while it streams), the Account Totals of
// the same month, and the client summary's p50/p95 over 100 requests with the books unchanged and
// over 100 requests each right after a posting and 100 while another loop keeps posting (the
// process's client book refreshes the changed customers).
// Usage: npm run bench:reports [-- --pglite-only | --postgres-only] [--summary-only]   (default: PostgreSQL only)
// BENCH_DATABASE_URL picks the PostgreSQL server, BENCH_DATABASE_NAME the database (cyclebill_bench).
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { DatabaseHandle } from "../apps/server/src/db/database.js";
import { queryRows } from "../apps/server/src/db/query-rows.js";
import { dbInt, dbText } from "../apps/server/src/db/row-schemas.js";
import { measureOnBenchDatabases, percentile, startBenchApp } from "./bench-app.js";

const MB = 1024 * 1024;

function spread(label: string, timings: number[]): string {
  const sorted = [...timings].sort((a, b) => a - b);
  return `${label}: p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms`;
}

async function measureReports(
  base: string,
  headers: Record<string, string>,
  client: { clientId: number; customers: number },
  month: string,
  entries: number | undefined,
  label: string,
): Promise<void> {
  // The register, streamed: memory sampled while the pages arrive.
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  let peakHeap = 0;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  }, 50);
  const started = performance.now();
  const response = await fetch(`${base}/pdf/account-register/${client.clientId}/${month}`, { headers });
  if (response.status !== 200 || !response.body) throw new Error(`register answered ${response.status}`);
  let firstByte = 0;
  let bytes = 0;
  const reader = response.body.getReader();
  // Heap in use each time another 2 MB of the PDF has arrived: flat if nothing piles up.
  const heapAlong: number[] = [];
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    if (bytes === 0) firstByte = performance.now() - started;
    const before = Math.floor(bytes / (2 * MB));
    bytes += chunk.value.byteLength;
    if (Math.floor(bytes / (2 * MB)) > before) heapAlong.push(process.memoryUsage().heapUsed / MB);
  }
  const registerMs = performance.now() - started;
  clearInterval(sampler);
  console.log(
    `${label}: Account Register ${month} (${entries ?? "?"} entries of ${client.customers} customers): ` +
      `${(registerMs / 1000).toFixed(1)} s (target ≤ 15 s), first byte after ${firstByte.toFixed(0)} ms, ` +
      `${(bytes / MB).toFixed(1)} MB; process memory ${(rssBefore / MB).toFixed(0)} MB before, peak ${(peakRss / MB).toFixed(0)} MB RSS, peak heap ${(peakHeap / MB).toFixed(0)} MB; heap every 2 MB of PDF: ${heapAlong.map((value) => value.toFixed(0)).join(", ")} MB`,
  );
  const totalsStarted = performance.now();
  const totals = await fetch(`${base}/pdf/account-totals/${client.clientId}/${month}`, { headers });
  await totals.arrayBuffer();
  console.log(`${label}: Account Totals ${month}: ${(performance.now() - totalsStarted).toFixed(0)} ms`);
}

/** The last full month of the client's ledger (null without postings) and its entries. */
const monthRowSchema = z.object({ month: dbText.nullable(), entries: dbInt });
const idRowSchema = z.object({ id: dbInt });

async function measure(handle: DatabaseHandle, label: string): Promise<void> {
  const { client, app, port, token } = await startBenchApp(handle, label);
  const base = `http://127.0.0.1:${port}/api`;
  const headers = { authorization: `Bearer ${token}` };
  const [range] = await queryRows(
    handle.db,
    sql`with m as (select to_char(date_trunc('month', max(service_date)) - interval '1 month', 'YYYY-MM') as month
                   from transactions where client_id = ${client.clientId})
        select m.month, (select count(*) from transactions where client_id = ${client.clientId}
                          and to_char(service_date, 'YYYY-MM') = m.month) as entries from m`,
    monthRowSchema,
  );
  const month = range?.month ?? "";
  if (!summaryOnly) await measureReports(base, headers, client, month, range?.entries, label);

  // The client summary: the first request builds the process's client book; then the books
  // unchanged, then a posting before each request (the book refreshes only the changed customer),
  // then reads while another loop keeps posting (mixed load).
  const summary = async () => {
    const begun = performance.now();
    const answer = await fetch(`${base}/summary-data/client/${client.clientId}`, { headers });
    await answer.json();
    if (answer.status !== 200) throw new Error(`summary answered ${answer.status}`);
    return performance.now() - begun;
  };
  // What any request costs on this machine now (no database, no sign-in): the floor under the figures.
  const health: number[] = [];
  for (let index = 0; index < 100; index += 1) {
    const begun = performance.now();
    await (await fetch(`${base}/health/`)).text();
    health.push(performance.now() - begun);
  }
  const first = await summary();
  const unchanged: number[] = [];
  for (let index = 0; index < 100; index += 1) unchanged.push(await summary());
  const customerIds = (
    await queryRows(
      handle.db,
      sql`select id from customers where client_id = ${client.clientId} and not deleted and delete_flag is null
          order by id limit 200`,
      idRowSchema,
    )
  ).map((row) => row.id);
  const [code] = await queryRows(
    handle.db,
    sql`select id from codes where client_id = ${client.clientId} and code_type = 'payment' limit 1`,
    idRowSchema,
  );
  let posting = 0;
  const post = async () => {
    posting += 1;
    const posted = await fetch(`${base}/transactions/`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({
        customer: customerIds[posting % customerIds.length],
        code: Number(code?.id),
        rate: "0.01",
        force: true,
      }),
    });
    if (posted.status !== 201) throw new Error(`posting answered ${posted.status}: ${await posted.text()}`);
  };
  const afterWrite: number[] = [];
  for (let index = 0; index < 100; index += 1) {
    await post();
    afterWrite.push(await summary());
  }
  let mixing = true;
  let mixedPostings = 0;
  const poster = (async () => {
    while (mixing) {
      await post();
      mixedPostings += 1;
    }
  })();
  const mixed: number[] = [];
  for (let index = 0; index < 100; index += 1) mixed.push(await summary());
  mixing = false;
  await poster;
  console.log(
    `${label}: client summary, first request (builds the book) ${first.toFixed(1)} ms; ` +
      `${spread("100 requests, books unchanged", unchanged)}; ` +
      `${spread("100 requests each right after a posting", afterWrite)}; ` +
      `${spread(`100 requests while postings run (${mixedPostings} posted meanwhile)`, mixed)} (target p95 ≤ 50 ms); ` +
      `baseline ${spread("GET /api/health/", health)}`,
  );
  await app.close();
}

const args = process.argv.slice(2);
const only = args.find((arg) => arg === "--pglite-only" || arg === "--postgres-only");
/** Only the client summary (skips the register and totals). */
const summaryOnly = args.includes("--summary-only");
// PostgreSQL only unless --pglite-only.
await measureOnBenchDatabases(only === "--pglite-only" ? only : "--postgres-only", measure);
