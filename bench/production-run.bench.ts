// A production run of one client with many customers, each with last month's statement, a monthly
// recurring charge, and a third of them 45 days overdue (a late fee each): the run's postings and
// statements, step by step in this process as the job engine's worker runs them, by phase; then its
// print pools drawn into merged PDFs on the PDF threads and zipped, as the pool-build jobs do.
// 30% of the customers take their statements by email: the run's statement emails are then drawn
// and sent to a local SMTP server (its own process), as the statement-email job sends them.
// Usage: npm run bench:production [-- --pglite-only | --postgres-only | --trail-compare]
// (--trail-compare: the PostgreSQL run alone, with the audit trail off and on, twice each)
// Sizes: 100,000 customers on PostgreSQL (targets: the run ≤ 60 s, pools ≤ 150 s, emails ≤ 150 s,
// end to end ≤ 5 minutes), 10,000 on PGlite (end to end ≤ 1 minute);
// BENCH_PRODUCTION_CUSTOMERS overrides both. Chunks of JOB_CHUNK_SIZE (default 500) customers.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { openDatabase, type DatabaseHandle } from "../apps/server/src/db/database.js";
import { dropDatabase, freshPostgres } from "./fresh-postgres.js";
import { CYCLE, RUN_DATE, generateProductionClient as generate } from "./production-data.js";
import { queryRows } from "../apps/server/src/db/query-rows.js";
import { dbInt, dbText } from "../apps/server/src/db/row-schemas.js";
import { ledgerMismatches } from "../apps/server/src/modules/ledger/ledger-mismatches.js";
import { getProductionRun } from "../apps/server/src/modules/production/production-runs.js";
import {
  runProductionStep,
  type EnqueueProductionSteps,
  type ProductionQueues,
  type ProductionStep,
} from "../apps/server/src/modules/production/run-production.js";
import { buildPool } from "../apps/server/src/modules/delivery/build-pool.js";
import {
  POOL_BUILD_JOB,
  STATEMENT_EMAIL_JOB,
  type DeliveryJob,
} from "../apps/server/src/modules/delivery/delivery-jobs.js";
import { sendStatementEmails } from "../apps/server/src/modules/delivery/send-statement-emails.js";
import { createMailer } from "../apps/server/src/modules/mail/mailer.js";
import { startProductionRun } from "../apps/server/src/modules/production/start-production.js";
import type { PhaseTimer, ProductionPhase } from "../apps/server/src/modules/production/write-production.js";
import { createUser } from "../apps/server/src/modules/users/create-user.js";
import { productionRunJob } from "../apps/server/src/jobs/production-run.job.js";

const CHUNK_SIZE = Number(process.env.JOB_CHUNK_SIZE ?? 500);
const { concurrency } = productionRunJob.queue;
/** Steps at once, as one worker process's production-run queue takes them (BENCH_PRODUCTION_LANES overrides). */
const LANES = Number(
  process.env.BENCH_PRODUCTION_LANES ??
    (concurrency === "cores" ? availableParallelism() : (concurrency ?? 1)),
);
const OVERRIDE = process.env.BENCH_PRODUCTION_CUSTOMERS;
const sizeOf = (fallback: number) => (OVERRIDE ? Number(OVERRIDE) : fallback);
const EMAIL_SHARE = 0.3;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const load = () =>
  loadavg()
    .map((figure) => figure.toFixed(2))
    .join(" ");

/** The process's largest resident size while `work` runs, sampled every 250 ms. */
async function peakMemory<T>(work: () => Promise<T>): Promise<{ result: T; before: number; peak: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 250);
  try {
    const result = await work();
    return { result, before, peak: Math.max(peak, process.memoryUsage().rss) };
  } finally {
    clearInterval(sampler);
  }
}

/** The statements the run made. */
const madeRowSchema = z.object({ statements: dbInt });

/** The audit trail's rows, to tell how many the run wrote. */
const trailRowSchema = z.object({ rows: dbInt });
const trailRows = async (handle: DatabaseHandle) =>
  (await queryRows(handle.db, sql`select count(*)::int as rows from audit_events`, trailRowSchema))[0]
    ?.rows ?? 0;

/**
 * The baseline of --trail-compare: the trail's tables take no rows. Row triggers that drop each
 * insert and update (a rule cannot: the chain head's insert uses ON CONFLICT), so no head is locked
 * and no row or index is written; what is left of the trail's cost is building and hashing its rows
 * in the process and three statements per transaction that write nothing.
 */
async function turnTrailOff(handle: DatabaseHandle): Promise<void> {
  await handle.db.execute(sql`create function bench_drop_row() returns trigger language plpgsql as
    $$ begin return null; end $$`);
  for (const table of ["audit_events", "audit_heads"])
    await handle.db.execute(
      sql.raw(`create trigger bench_trail_off before insert or update on ${table}
               for each row execute function bench_drop_row()`),
    );
}

type Generated = { clientId: number; overdue: number };
/** The trail on or off; pools and emails or the run alone; the client already generated (a copy). */
type MeasureOptions = { trail?: boolean; deliveries?: boolean; generated?: Generated };

async function measure(
  handle: DatabaseHandle,
  label: string,
  customers: number,
  options: MeasureOptions = {},
): Promise<number> {
  const generating = performance.now();
  const { clientId, overdue } = options.generated ?? (await generate(handle, customers, EMAIL_SHARE));
  if (options.trail === false) await turnTrailOff(handle);
  const trailBefore = await trailRows(handle);
  console.log(
    `${label}: ${customers} customers (${overdue} overdue) ` +
      (options.generated
        ? "in a copy of the generated database"
        : `generated in ${((performance.now() - generating) / 1000).toFixed(1)} s`) +
      `; chunks of ${CHUNK_SIZE}, ${LANES} at once`,
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
  let running = 0;
  // Each lane takes the next step, as one of the worker's loops does; a lane that finds the queue
  // empty waits while another lane's step (the plan) may still enqueue more.
  const lane = async (): Promise<void> => {
    for (;;) {
      const step = queue.shift();
      if (!step) {
        if (running === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
        continue;
      }
      running += 1;
      const stepStarted = performance.now();
      try {
        await runProductionStep(handle.db, step, queues, time);
      } finally {
        running -= 1;
      }
      stepsMs += performance.now() - stepStarted;
      steps += 1;
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  const seconds = (performance.now() - started) / 1000;
  const timed = [...phases.entries()]
    .filter(([phase]) => phase !== "start")
    .reduce((sum, [, ms]) => sum + ms, 0);
  add("other", stepsMs - timed);

  const finished = await getProductionRun(handle.db, run.id);
  const [made] = await queryRows(
    handle.db,
    sql`select count(*)::int as statements from statements
        where client_id = ${clientId} and production_run_id is not null`,
    madeRowSchema,
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
    `  doctor: ${mismatches.length === 0 ? "every balance equals its ledger" : `${mismatches.length} mismatches`}; ` +
      `audit trail ${options.trail === false ? "off" : `on, ${(await trailRows(handle)) - trailBefore} rows written`}`,
  );
  if (options.deliveries === false) return seconds;
  const poolSeconds = await buildPools(handle, deliveries);
  const emailSeconds = await sendEmails(handle, deliveries);
  const total = seconds + poolSeconds + emailSeconds;
  console.log(
    `  end to end (run, pools, emails): ${total.toFixed(1)} s, ${Math.round(customers / total)} customers/s ` +
      `(load average ${load()})`,
  );
  return seconds;
}

/** The run's statement emails, as the statement-email job sends them, to a local SMTP server. */
async function sendEmails(handle: DatabaseHandle, jobs: readonly DeliveryJob[]): Promise<number> {
  const sink = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "smtp-sink.ts")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [first] = (await once(sink.stdout, "data")) as [Buffer];
  const port = /listening (\d+)/.exec(first.toString())?.[1];
  const dataDir = await mkdtemp(path.join(tmpdir(), "cyclebill-emails-bench-"));
  const mailer = createMailer({
    smtpUrl: `smtp://127.0.0.1:${port}`,
    dataDir,
    log: { info: () => undefined },
  });
  const started = performance.now();
  try {
    const { result, before, peak } = await peakMemory(async () => {
      let sent = 0;
      let failed = 0;
      for (const job of jobs)
        if (job.name === STATEMENT_EMAIL_JOB) {
          const done = await sendStatementEmails(
            handle.db,
            { dataDir, publicUrl: "https://billing.example", mailer },
            job.payload,
          );
          sent += done.sent;
          failed += done.failed;
        }
      return { sent, failed };
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `  emails: ${result.sent} statement emails sent (${result.failed} failed) in ${seconds.toFixed(1)} s, ` +
        `${Math.round(result.sent / seconds)}/s; memory ${mb(before)} before, ${mb(peak)} at most (load average ${load()})`,
    );
    return seconds;
  } finally {
    sink.kill("SIGTERM");
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The run's pools, as the pool-build jobs draw them (all at once, sharing the PDF threads):
 * statements per second, pages, zip size, and the process's peak memory while they build.
 */
/** A pool as built; its file's size as text (null until written). */
const poolRowSchema = z.object({
  pool_name: dbText,
  state: dbText,
  statements_count: dbInt,
  pages_count: dbInt,
  file_bytes: dbText.nullable(),
});

async function buildPools(handle: DatabaseHandle, jobs: readonly DeliveryJob[]): Promise<number> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "cyclebill-pools-bench-"));
  const started = performance.now();
  const { before: rssBefore, peak } = await peakMemory(() =>
    Promise.all(
      jobs.flatMap((job) =>
        job.name === POOL_BUILD_JOB
          ? [buildPool(handle.db, { dataDir, publicUrl: "https://billing.example" }, job.payload.poolId)]
          : [],
      ),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const pools = await queryRows(
    handle.db,
    sql`select pool_name, state, statements_count, pages_count, file_bytes::text from pools order by id`,
    poolRowSchema,
  );
  const statements = pools.reduce((sum, pool) => sum + pool.statements_count, 0);
  for (const pool of pools)
    console.log(
      `  pool ${pool.pool_name}: ${pool.state}, ${pool.statements_count} statements, ${pool.pages_count} pages, zip ${mb(Number(pool.file_bytes))}`,
    );
  console.log(
    `  pools: ${statements} statements drawn and zipped in ${seconds.toFixed(1)} s, ${Math.round(statements / seconds)} statements/s; ` +
      `memory ${mb(rssBefore)} before, ${mb(peak)} at most while building (load average ${load()})`,
  );
  await rm(dataDir, { recursive: true, force: true });
  return seconds;
}

const args = new Set(process.argv.slice(2));
if (args.has("--trail-compare")) {
  // The run alone, with the trail on and off (each on a fresh database), in the order on, off,
  // off, on: a steady change in the machine's load lands on both sides alike, and the first run's
  // cold start (about twice as slow at 2,000 customers) on the trail's side.
  // The client is generated once; each run takes a copy of that database (CREATE DATABASE ...
  // TEMPLATE), which takes seconds where generating 100,000 customers took minutes.
  const seedName = "cyclebill_bench_trail_seed";
  const seed = await freshPostgres(seedName);
  const generated = await generate(seed.handle, sizeOf(100_000), EMAIL_SHARE);
  await seed.handle.close();
  const seconds: Record<"off" | "on", number[]> = { off: [], on: [] };
  try {
    for (const trail of ["on", "off", "off", "on"] as const) {
      const { handle, drop } = await freshPostgres(`cyclebill_bench_trail_${trail}`, 2, seedName);
      try {
        const label = `PostgreSQL, trail ${trail}`;
        seconds[trail].push(
          await measure(handle, label, sizeOf(100_000), {
            trail: trail === "on",
            deliveries: false,
            generated,
          }),
        );
      } finally {
        await drop();
      }
    }
  } finally {
    await dropDatabase(seedName);
  }
  const mean = (list: number[]) => list.reduce((sum, value) => sum + value, 0) / list.length;
  const [off, on] = [mean(seconds.off), mean(seconds.on)];
  console.log(
    `trail compare: off ${seconds.off.map((value) => value.toFixed(1)).join(", ")} s, ` +
      `on ${seconds.on.map((value) => value.toFixed(1)).join(", ")} s; the trail costs ` +
      `${(((on - off) / off) * 100).toFixed(1)}% of the run (load average ${load()})`,
  );
  process.exit(0);
}
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
  const { handle, drop } = await freshPostgres("cyclebill_bench_production");
  try {
    await measure(handle, "PostgreSQL", sizeOf(100_000));
  } finally {
    await drop();
  }
}
