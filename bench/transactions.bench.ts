// Ledger benchmarks on the 50,000-customer / 1,000,000-posting client (see customer-list.bench.ts):
// transaction search page p95, total-amount p95 (100 requests each, varied filters), and posting a
// batch to a 5,000-customer group. Usage: npm run bench:transactions [-- --pglite-only | --postgres-only]
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { DatabaseHandle } from "../apps/server/src/db/database.js";
import { queryRows } from "../apps/server/src/db/query-rows.js";
import { dbInt } from "../apps/server/src/db/row-schemas.js";
import { measureOnBenchDatabases, percentile, startBenchApp } from "./bench-app.js";

const REQUESTS = 100;

/** The client's first customer and its payment code (null when missing). */
const rangeRowSchema = z.object({ first: dbInt.nullable(), codes: dbInt.nullable() });
const idRowSchema = z.object({ id: dbInt });

async function measure(handle: DatabaseHandle, label: string): Promise<void> {
  const { client, app, port, token } = await startBenchApp(handle, label);
  const [range] = await queryRows(
    handle.db,
    sql`select min(id) as first, (select min(id) from codes where client_id = ${client.clientId} and code = 200) as codes
        from customers where client_id = ${client.clientId}`,
    rangeRowSchema,
  );
  const firstCustomer = Number(range?.first);
  const call = async (
    method: string,
    pathname: string,
    query: Record<string, string> = {},
    body?: unknown,
  ) => {
    const url = new URL(`http://127.0.0.1:${port}${pathname}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const started = performance.now();
    const response = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${pathname} ${response.status}: ${text.slice(0, 300)}`);
    return { ms: performance.now() - started, body: text };
  };
  const filters = (index: number): Record<string, string> => {
    const customer = String(firstCustomer + ((index * 7919) % client.customers));
    const month = String(1 + (index % 11)).padStart(2, "0");
    const variants: Record<string, string>[] = [
      { customer__id: customer },
      { customer__id: customer, code__code_type: "payment" },
      { serviceDate__gte: `2026-${month}-01`, serviceDate__lte: `2026-${month}-07` },
      {
        serviceDate__gte: `2026-${month}-10`,
        serviceDate__lte: `2026-${month}-10`,
        code__code_type: "charge",
      },
      { created__gte: `2026-${month}-03`, created__lte: `2026-${month}-04` },
      {},
    ];
    return variants[index % variants.length] ?? {};
  };
  const run = async (name: string, pathname: string, extra: (index: number) => Record<string, string>) => {
    for (let index = 0; index < 10; index += 1) await call("GET", pathname, extra(index)); // warm-up
    const timings: number[] = [];
    for (let index = 0; index < REQUESTS; index += 1)
      timings.push((await call("GET", pathname, extra(index))).ms);
    timings.sort((a, b) => a - b);
    console.log(
      `${label}: ${name}, ${REQUESTS} requests: p50 ${percentile(timings, 50).toFixed(1)} ms, p95 ${percentile(timings, 95).toFixed(1)} ms`,
    );
  };
  await run("transaction search page (50 per page)", "/api/transactions/", (index) => ({
    limit: "50",
    page: String(1 + (index % 3)),
    ordering: index % 2 ? "-serviceDate" : "-created",
    ...filters(index),
  }));
  await run("transaction total amount", "/api/transactions/get_total_amount/", filters);

  // A group of 5,000 standard members, then one batch posting to it (the whole batch is one transaction).
  const [group] = await queryRows(
    handle.db,
    sql`insert into routes (client_id, route_name) values (${client.clientId}, ${`Bench group ${Date.now()}`}) returning id`,
    idRowSchema,
  );
  await handle.db.execute(sql`
    insert into route_plans (client_id, route_id, customer_id, stop)
    select client_id, ${group?.id}, id, row_number() over (order by id) - 1
    from customers where client_id = ${client.clientId} and not deleted and delete_flag is null order by id limit 5000`);
  const [code] = await queryRows(
    handle.db,
    sql`select id from codes where client_id = ${client.clientId} and code = 100`,
    idRowSchema,
  );
  const timings: number[] = [];
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const result = await call(
      "POST",
      "/api/transactionsroutes/",
      {},
      {
        route: Number(group?.id),
        code: Number(code?.id),
        amount: "12.50",
        transaction_type: "route",
      },
    );
    const count = (JSON.parse(result.body) as { count: number }).count;
    if (count !== 5000) throw new Error(`batch posted ${count}`);
    timings.push(result.ms);
  }
  console.log(
    `${label}: group batch of 5,000 postings: ${timings.map((ms) => `${ms.toFixed(0)} ms`).join(", ")}`,
  );
  // Keep the data set as generated for the next run.
  await handle.db.execute(
    sql`delete from transactions where client_id = ${client.clientId} and transaction_type = 'route'`,
  );
  await handle.db.execute(sql`
    update customers c set total_balance = s.total, ledger_entries = s.entries, ledger_amount_total = s.amount_total
    from (select customer_id, sum(ledger_amount) as total, count(*)::int as entries, sum(amount) as amount_total
          from transactions where client_id = ${client.clientId} group by customer_id) s
    where c.client_id = ${client.clientId} and c.id = s.customer_id
      and (c.total_balance <> s.total or c.ledger_entries <> s.entries or c.ledger_amount_total <> s.amount_total)`);
  await handle.db
    .execute(sql`update customers set mtd_charges = mtd_charges - 37.50 where client_id = ${client.clientId}
    and id in (select customer_id from route_plans where route_id = ${group?.id})`);
  await handle.db.execute(sql`delete from routes where client_id = ${client.clientId} and id = ${group?.id}`);
  await app.close();
}

await measureOnBenchDatabases(process.argv[2], measure);
