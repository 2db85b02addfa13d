// A production run of one client with many customers, each with last month's statement, a monthly
// recurring charge, and a third of them 45 days overdue (a late fee each): the run's postings and
// statements, step by step in this process as the job engine's worker runs them, by phase; then its
// print pools drawn into merged PDFs in worker threads and zipped, as the pool-build jobs do.
// Usage: npm run bench:production [-- --pglite-only | --postgres-only]
// Sizes: 100,000 customers on PostgreSQL (target ≤ 60 s), 10,000 on PGlite (target ≤ 30 s);
// BENCH_PRODUCTION_CUSTOMERS overrides both. Chunks of JOB_CHUNK_SIZE (default 500) customers.
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "../apps/server/src/db/database.js";
import { queryRows } from "../apps/server/src/db/query-rows.js";
import { ledgerMismatches } from "../apps/server/src/modules/ledger/ledger-mismatches.js";
import { postEntries } from "../apps/server/src/modules/ledger/post-entries.js";
import { getProductionRun } from "../apps/server/src/modules/production/production-runs.js";
import {
  runProductionStep,
  type EnqueueProductionSteps,
  type ProductionQueues,
  type ProductionStep,
} from "../apps/server/src/modules/production/run-production.js";
import { buildPool } from "../apps/server/src/modules/delivery/build-pool.js";
import { POOL_BUILD_JOB, type DeliveryJob } from "../apps/server/src/modules/delivery/delivery-jobs.js";
import { startProductionRun } from "../apps/server/src/modules/production/start-production.js";
import type { PhaseTimer, ProductionPhase } from "../apps/server/src/modules/production/write-production.js";
import { createUser } from "../apps/server/src/modules/users/create-user.js";

const CHUNK_SIZE = Number(process.env.JOB_CHUNK_SIZE ?? 500);
const CYCLE = 15;
const RUN_DATE = "2026-11-15";
const OVERRIDE = process.env.BENCH_PRODUCTION_CUSTOMERS;
const sizeOf = (fallback: number) => (OVERRIDE ? Number(OVERRIDE) : fallback);

/** The client, its customers and charges, set-based; the overdue third posted through the ledger writer. */
async function generate(handle: DatabaseHandle, customers: number) {
  await handle.migrate();
  const [client] = await queryRows<{ id: number }>(
    handle.db,
    sql`insert into clients (client_no, client_name, address1, city, state, zip, normal_cycle, date_last_billing,
          finance_flag, thirty_day_rate_or_percent, day_charge_30_day)
        values (900015, 'Production Bench', '15 Bench St', 'Austin', 'TX', '73301', ${CYCLE}, '2026-10-15',
          '1', 'rate', 5.00) returning id`,
  );
  const clientId = Number(client?.id);
  const [code] = await queryRows<{ id: number }>(
    handle.db,
    sql`insert into codes (client_id, code, description, code_type)
        values (${clientId}, 100, 'Monthly service', 'charge') returning id`,
  );
  const codeId = Number(code?.id);
  await handle.db.execute(sql`
    insert into customers (client_id, customer_no, customer_name, address1, city, state, zip)
    select ${clientId}::bigint, g, 'Customer ' || g, g || ' Main St', 'Austin', 'TX', '73301'
    from generate_series(1, ${customers}::int) as g`);
  await handle.db.execute(sql`
    insert into recurring_charges (client_id, customer_id, code_id, description, rate, quantity, amount,
      start_month, end_month)
    select client_id, id, ${codeId}::bigint, 'Monthly service', 20 + (customer_no % 10), 1, 20 + (customer_no % 10), 1, 12
    from customers where client_id = ${clientId}`);
  // Last month's statement of every customer: a client this size has billed before (and the
  // database's plans for the statements table are made on a table of its real size).
  await handle.db.execute(sql`
    insert into statements (client_id, statement_num, customer_id, statement_date, invoice_status)
    select client_id, customer_no, id, '2026-10-15', 'processed' from customers where client_id = ${clientId}`);
  const overdue = await queryRows<{ id: number }>(
    handle.db,
    sql`select id from customers where client_id = ${clientId} and customer_no % 3 = 0 order by id`,
  );
  await handle.db.transaction((tx) =>
    postEntries(
      tx,
      { clientId },
      overdue.map((row) => ({
        customerId: Number(row.id),
        codeId,
        codeType: "charge" as const,
        description: "Service",
        rate: "40.00",
        quantity: "1",
        serviceDate: "2026-10-01",
      })),
    ),
  );
  // Statistics, as autovacuum (PostgreSQL) or the start-up analyze (PGlite) keep them on a live system.
  await handle.db.execute(sql`analyze`);
  return { clientId, overdue: overdue.length };
}

async function measure(handle: DatabaseHandle, label: string, customers: number): Promise<void> {
  const generating = performance.now();
  const { clientId, overdue } = await generate(handle, customers);
  console.log(
    `${label}: ${customers} customers (${overdue} overdue) generated in ` +
      `${((performance.now() - generating) / 1000).toFixed(1)} s; chunks of ${CHUNK_SIZE}`,
  );
  const admin = await createUser(handle.db, {
    email: "bench-admin@example.test",
    password: null,
    isAdmin: true,
  });
  const user = { ...admin, username: admin.email, isAdmin: true, isClientStaff: false, clientId: null };

  const phases = new Map<ProductionPhase | "start" | "other", number>();
  const add = (phase: ProductionPhase | "start" | "other", ms: number) =>
    phases.set(phase, (phases.get(phase) ?? 0) + ms);
  // The phases do not nest; what the steps spend outside them is reported as "other".
  const time: PhaseTimer = async (phase, work) => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      add(phase, performance.now() - started);
    }
  };
  const queue: ProductionStep[] = [];
  const enqueue: EnqueueProductionSteps = (_tx, steps) => {
    queue.push(...steps.map((step) => step.payload));
    return Promise.resolve();
  };
  const deliveries: DeliveryJob[] = [];
  const queues: ProductionQueues = {
    steps: enqueue,
    delivery: (_tx, jobs) => {
      deliveries.push(...jobs);
      return Promise.resolve();
    },
    // No client of this bench has a gateway key: autopay starts nothing.
    cardRuns: () => Promise.resolve(),
  };

  const started = performance.now();
  const run = await startProductionRun(
    handle.db,
    user,
    { cycle: CYCLE, runDate: RUN_DATE, chunkSize: CHUNK_SIZE },
    enqueue,
  );
  add("start", performance.now() - started);
  let steps = 0;
  let stepsMs = 0;
  for (let step = queue.shift(); step; step = queue.shift()) {
    const stepStarted = performance.now();
    await runProductionStep(handle.db, step, queues, time);
    stepsMs += performance.now() - stepStarted;
    steps += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  const timed = [...phases.entries()]
    .filter(([phase]) => phase !== "start")
    .reduce((sum, [, ms]) => sum + ms, 0);
  add("other", stepsMs - timed);

  const finished = await getProductionRun(handle.db, run.id);
  const [made] = await queryRows<{ statements: number }>(
    handle.db,
    sql`select count(*)::int as statements from statements
        where client_id = ${clientId} and production_run_id is not null`,
  );
  const mismatches = await ledgerMismatches(handle.db, { clientId });
  const [one, five, fifteen] = loadavg();
  console.log(
    `  run: ${finished.status}, ${steps} steps, ${seconds.toFixed(1)} s, ` +
      `${Math.round(customers / seconds)} customers/s (load average ${one?.toFixed(2)} ${five?.toFixed(2)} ${fifteen?.toFixed(2)})`,
  );
  console.log(
    `  posted: ${finished.figures.recurring.count} recurring (${finished.figures.recurring.total}), ` +
      `${finished.figures.late_fees.count} late fees (${finished.figures.late_fees.total}); ${made?.statements} statements`,
  );
  const order = ["start", "plan", "postings", "statements", "bookkeeping", "other"] as const;
  console.log(
    `  where the time goes: ${order
      .map((phase) => `${phase} ${((phases.get(phase) ?? 0) / 1000).toFixed(1)} s`)
      .join(", ")} (other: locks, chunk records, commits)`,
  );
  console.log(
    `  doctor: ${mismatches.length === 0 ? "every balance equals its ledger" : `${mismatches.length} mismatches`}`,
  );
  await buildPools(handle, deliveries, customers, seconds);
}

/**
 * The run's pools, as the pool-build jobs draw them (all at once, each in its own PDF thread):
 * statements per second, pages, zip size, and the process's peak memory while they build.
 */
async function buildPools(
  handle: DatabaseHandle,
  jobs: readonly DeliveryJob[],
  customers: number,
  runSeconds: number,
) {
  const dataDir = await mkdtemp(path.join(tmpdir(), "cyclebill-pools-bench-"));
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 250);
  const started = performance.now();
  try {
    await Promise.all(
      jobs.flatMap((job) =>
        job.name === POOL_BUILD_JOB
          ? [buildPool(handle.db, { dataDir, publicUrl: "https://billing.example" }, job.payload.poolId)]
          : [],
      ),
    );
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  const pools = await queryRows<{
    pool_name: string;
    state: string;
    statements_count: number;
    pages_count: number;
    file_bytes: string;
  }>(
    handle.db,
    sql`select pool_name, state, statements_count, pages_count, file_bytes::text from pools order by id`,
  );
  const statements = pools.reduce((sum, pool) => sum + pool.statements_count, 0);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  for (const pool of pools)
    console.log(
      `  pool ${pool.pool_name}: ${pool.state}, ${pool.statements_count} statements, ${pool.pages_count} pages, zip ${mb(Number(pool.file_bytes))}`,
    );
  console.log(
    `  pools: ${statements} statements drawn and zipped in ${seconds.toFixed(1)} s, ${Math.round(statements / seconds)} statements/s; ` +
      `memory ${mb(rssBefore)} before, ${mb(peak)} at most while building`,
  );
  console.log(
    `  run and pools end to end: ${(runSeconds + seconds).toFixed(1)} s, ${Math.round(customers / (runSeconds + seconds))} customers/s`,
  );
  await rm(dataDir, { recursive: true, force: true });
}

async function postgresHandle(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  const server = process.env.BENCH_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";
  const name = "cyclebill_bench_production";
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 2 });
  return {
    handle,
    drop: async () => {
      await handle.close();
      const dropper = new pg.Client({ connectionString: server });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

const args = new Set(process.argv.slice(2));
if (!args.has("--postgres-only")) {
  const handle = await openDatabase({ kind: "pglite", dataDir: null });
  await measure(handle, "PGlite (in memory)", sizeOf(10_000));
  await handle.close();
  // On disk too: `npm start` keeps its PGlite database in ./data.
  const dataDir = await mkdtemp(path.join(tmpdir(), "cyclebill-production-bench-"));
  try {
    const onDisk = await openDatabase({ kind: "pglite", dataDir });
    await measure(onDisk, "PGlite (on disk)", sizeOf(10_000));
    await onDisk.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
if (!args.has("--pglite-only")) {
  const { handle, drop } = await postgresHandle();
  try {
    await measure(handle, "PostgreSQL", sizeOf(100_000));
  } finally {
    await drop();
  }
}
