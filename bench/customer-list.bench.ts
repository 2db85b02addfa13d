// Customer list response time (p50/p95 over 100 requests with sorting and filtering) for a client
// with 50,000 customers and 1,000,000 postings, on PGlite and on PostgreSQL.
// Usage: npm run bench:customers [-- --pglite-only | --postgres-only]
// BENCH_DATABASE_URL picks the PostgreSQL server (default postgres://root@127.0.0.1:5432/test; a
// database cyclebill_bench is created there once and reused). PGlite data is kept in bench/.data.
import { performance } from "node:perf_hooks";
import type { DatabaseHandle } from "../apps/server/src/db/database.js";
import { measureOnBenchDatabases, percentile, startBenchApp } from "./bench-app.js";

const REQUESTS = 100;

const queries: Record<string, string>[] = [
  { ordering: "customer_no" },
  { ordering: "-balance" },
  { ordering: "customer_name", query: "garcia" },
  { ordering: "-open_date", startDate: "2024-06-01", endDate: "2025-01-31" },
  { ordering: "last_name", query: "123" },
  { ordering: "customer_no", includeOnlyPendingArchived: "true" },
  { ordering: "-mtd_charges", page: "40" },
  { ordering: "city,customer_no", query: "main st" },
  { ordering: "customer_no", includeOnlyArchived: "true" },
  { ordering: "-last_pay_date", page: "7" },
];

async function measure(handle: DatabaseHandle, label: string): Promise<void> {
  const { client, app, port, token } = await startBenchApp(handle, label);
  const request = async (query: Record<string, string>) => {
    const url = new URL(`http://127.0.0.1:${port}/api/customers/`);
    for (const [key, value] of Object.entries({ limit: "15", ...query })) url.searchParams.set(key, value);
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = (await response.json()) as { count: number };
    if (response.status !== 200) throw new Error(`${response.status}: ${JSON.stringify(body)}`);
    return performance.now() - started;
  };
  for (const query of queries) await request(query); // warm-up
  const timings: number[] = [];
  for (let index = 0; index < REQUESTS; index += 1)
    timings.push(await request(queries[index % queries.length] ?? {}));
  timings.sort((a, b) => a - b);
  console.log(
    `${label}: customer list, ${client.customers} customers / ${client.transactions} transactions, ${REQUESTS} requests: ` +
      `p50 ${percentile(timings, 50).toFixed(1)} ms, p95 ${percentile(timings, 95).toFixed(1)} ms, max ${(timings.at(-1) ?? 0).toFixed(1)} ms`,
  );
  await app.close();
}

await measureOnBenchDatabases(process.argv[2], measure);
