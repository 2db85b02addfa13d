// One client's production run worked by 1, 2 and 4 worker processes (`npm run worker`) on one
// PostgreSQL database, as a bureau scales out: the run's chunks are shared by the workers, then its
// print pools are built (one job per pool). Prints customers/s for the run and end to end for each.
// Usage: npm run bench:production-workers [-- --workers 1,2,4]; BENCH_PRODUCTION_CUSTOMERS
// (default 100,000) and JOB_CHUNK_SIZE (default 500) set the size.
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { loadConfig } from "../apps/server/src/config.js";
import { queryRows } from "../apps/server/src/db/query-rows.js";
import { dbInt } from "../apps/server/src/db/row-schemas.js";
import { startJobs } from "../apps/server/src/jobs/index.js";
import { ledgerMismatches } from "../apps/server/src/modules/ledger/ledger-mismatches.js";
import { getProductionRun } from "../apps/server/src/modules/production/production-runs.js";
import { startProductionRun } from "../apps/server/src/modules/production/start-production.js";
import { createUser } from "../apps/server/src/modules/users/create-user.js";
import { startWorkerProcess, type WorkerProcess } from "../apps/server/src/test-support/worker-process.js";
import { freshPostgres } from "./fresh-postgres.js";
import { CYCLE, RUN_DATE, generateProductionClient } from "./production-data.js";

const CUSTOMERS = Number(process.env.BENCH_PRODUCTION_CUSTOMERS ?? 100_000);
const CHUNK_SIZE = Number(process.env.JOB_CHUNK_SIZE ?? 500);
const flag = process.argv.indexOf("--workers");
const WORKER_COUNTS = (flag >= 0 ? (process.argv[flag + 1] ?? "") : "1,2,4")
  .split(",")
  .map(Number)
  .filter((count) => count > 0);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The client's pools still building, and failed. */
const poolStatesRowSchema = z.object({ building: dbInt, failed: dbInt });

async function measure(workerCount: number): Promise<void> {
  const { handle, url, drop } = await freshPostgres("cyclebill_bench_workers");
  const dataDir = await mkdtemp(path.join(tmpdir(), "cyclebill-workers-bench-"));
  const workers: WorkerProcess[] = [];
  const jobs = await startJobs({
    db: handle.db,
    backend: handle.jobBackend,
    settings: loadConfig({ DATA_DIR: dataDir, JWT_SECRET: "bench" }).jobs,
    log: { info: () => undefined, warn: () => undefined, error: console.error },
    work: false,
    services: {
      dataDir,
      publicUrl: "https://billing.example",
      mailer: { send: () => Promise.resolve() },
      gateway: {
        url: null,
        mode: "TEST",
        timeoutMs: 1000,
        secretsKey: "queue-only",
        installationId: "BENCH00000",
      },
    },
  });
  try {
    const { clientId } = await generateProductionClient(handle, CUSTOMERS);
    const admin = await createUser(handle.db, {
      email: "bench-admin@example.test",
      password: null,
      isAdmin: true,
    });
    for (let index = 0; index < workerCount; index++)
      workers.push(startWorkerProcess(url, { dataDir, expireSeconds: 900, chunkSize: CHUNK_SIZE }));
    await sleep(5_000); // the workers start and begin polling

    const started = performance.now();
    const run = await startProductionRun(
      handle.db,
      { ...admin, username: admin.email, isAdmin: true, isClientStaff: false, clientId: null },
      { cycle: CYCLE, runDate: RUN_DATE, chunkSize: CHUNK_SIZE },
      async (tx, steps) => {
        for (const step of steps)
          await jobs.enqueue("production-run", step.payload, { executor: tx, priority: step.priority });
      },
    );
    while (["queued", "running"].includes((await getProductionRun(handle.db, run.id)).status))
      await sleep(250);
    const runSeconds = (performance.now() - started) / 1000;
    for (;;) {
      const [pools] = await queryRows(
        handle.db,
        sql`select count(*) filter (where state = 'building')::int as building,
                   count(*) filter (where state = 'failed')::int as failed
            from pools where client_id = ${clientId}`,
        poolStatesRowSchema,
      );
      if ((pools?.building ?? 0) === 0) break;
      await sleep(500);
    }
    const totalSeconds = (performance.now() - started) / 1000;
    const finished = await getProductionRun(handle.db, run.id);
    const mismatches = await ledgerMismatches(handle.db, { clientId });
    const [one] = loadavg();
    console.log(
      `${workerCount} worker${workerCount === 1 ? "" : "s"}: run ${finished.status} in ${runSeconds.toFixed(1)} s ` +
        `(${Math.round(CUSTOMERS / runSeconds)} customers/s); with its pools ${totalSeconds.toFixed(1)} s ` +
        `(${Math.round(CUSTOMERS / totalSeconds)} customers/s); doctor: ${mismatches.length} mismatches; ` +
        `load average ${one?.toFixed(1)}`,
    );
  } finally {
    for (const worker of workers) worker.child.kill("SIGTERM");
    await Promise.all(workers.map((worker) => worker.exited));
    await jobs.stop();
    await drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `Production run of ${CUSTOMERS} customers in chunks of ${CHUNK_SIZE} on PostgreSQL, ` +
    `${availableParallelism()} cores; workers ${WORKER_COUNTS.join(", ")}`,
);
for (const count of WORKER_COUNTS) await measure(count);
