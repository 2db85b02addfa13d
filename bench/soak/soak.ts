// The seeded fault simulation: `npm run soak -- --seed N --sequences K [--start I]`. Each sequence
// is a fresh client and 10-30 seeded operations through the real HTTP API of two API processes
// (two workers behind them) and the gateway sandbox dropping answers, with kill -9 of a process at
// seeded points; then its jobs are waited for, its pending payments settled, and its books, its
// payments (against the sandbox's book) and its production checked. Exit 1 on any mismatch.
// `--statements` runs the statement model's property test instead (statement-soak.ts).
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { openDatabase } from "../../apps/server/src/db/database.js";
import { issueSessionToken } from "../../apps/server/src/modules/auth/start-session.js";
import { createUser } from "../../apps/server/src/modules/users/create-user.js";
import { checkSequence } from "./soak-checks.js";
import { createSoakClient } from "./soak-client.js";
import { runOperation, type SequenceContext } from "./soak-operations.js";
import { planSequence } from "./soak-plan.js";
import { SOAK_SECRET, startCluster } from "./soak-processes.js";
import { runStatementSoak } from "./statement-soak.js";

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const seed = Number(option("seed") ?? 1);
const sequences = Number(option("sequences") ?? 10);
const start = Number(option("start") ?? 0);
const serverUrl =
  option("database-url") ?? process.env.SOAK_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";
const reuse = option("database-name");
/** Stop starting sequences after this long (for a timed run); unset: run them all. */
const minutes = Number(option("minutes") ?? Infinity);
const databaseName = reuse ?? `soak_${process.pid}`;
const DROP_RATE = 0.2;

async function adminQuery(text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

async function main(): Promise<number> {
  if (process.argv.includes("--statements"))
    return runStatementSoak({
      seed: option("seed") === undefined ? undefined : seed,
      sequences: Number(option("sequences") ?? 1000),
      processes: Number(option("processes") ?? 3),
      databaseUrl: serverUrl,
    });
  if (![seed, sequences, start].every(Number.isInteger))
    throw new Error("--seed, --sequences and --start take whole numbers");
  const began = performance.now();
  if (!reuse) await adminQuery(`create database ${databaseName}`);
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  const cluster = await startCluster(url.toString(), DROP_RATE, process.argv.includes("--dist"));
  const handle = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 3 });
  const answers = new Map<string, number>();
  const totals = {
    sequences: 0,
    operations: 0,
    apiKills: 0,
    workerKills: 0,
    lostAnswers: 0,
    dropped: 0,
    mismatches: 0,
    attempts: 0,
    serverErrors: 0,
    lostAtGateway: 0,
    leftUnknown: 0,
    returns: 0,
    chargebacks: 0,
    reversals: 0,
  };
  try {
    console.log(
      `soak: seed ${seed}, sequences ${start}..${start + sequences - 1}, database ${databaseName}, ` +
        `processes up in ${cluster.startTimes.map((ms) => `${ms} ms`).join(", ")}`,
    );
    const admin = await createUser(handle.db, {
      email: `soak-admin-${process.pid}-${Date.now()}@soak.example`,
      password: null,
      isAdmin: true,
    });
    const adminToken = await issueSessionToken(handle.db, SOAK_SECRET, admin.id, {
      address: "127.0.0.1",
      userAgent: "soak",
    });
    for (let index = start; index < start + sequences; index++) {
      if (performance.now() - began > minutes * 60_000) break;
      const sequenceStarted = performance.now();
      const plan = planSequence(seed, index);
      cluster.sandbox.setFaults({ dropRate: DROP_RATE, seed: plan.gatewaySeed });
      const client = await createSoakClient(handle.db, cluster.sandbox, plan, process.pid);
      const context: SequenceContext = {
        cluster,
        client,
        adminToken,
        key: `soak-${seed}-${index}-${client.clientId}`,
        faults: { apiKills: 0, workerKills: 0, lostAnswers: 0 },
        gateway: { lost: 0, returns: 0, chargebacks: 0, reversals: 0 },
        answers,
        serverErrors: [],
      };
      for (const [n, operation] of plan.operations.entries()) {
        const operationStarted = performance.now();
        await runOperation(context, operation, n);
        if (process.argv.includes("--trace"))
          console.log(
            `  ${n} ${operation.kind}${operation.kill ? ` (kill ${operation.kill})` : ""}: ` +
              `${Math.round(performance.now() - operationStarted)} ms`,
          );
      }
      await cluster.settled();
      const check = await checkSequence(context, handle.db);
      const problems = [...check.problems, ...context.serverErrors.map((error) => `a 5xx answer: ${error}`)];
      totals.serverErrors += context.serverErrors.length;
      const dropped = cluster.sandbox
        .transactions()
        .filter((t) => t.accountId === client.accountId && t.delivery === "dropped").length;
      totals.sequences += 1;
      totals.operations += plan.operations.length;
      totals.apiKills += context.faults.apiKills;
      totals.workerKills += context.faults.workerKills;
      totals.lostAnswers += context.faults.lostAnswers;
      totals.dropped += dropped;
      totals.mismatches += problems.length;
      totals.attempts += check.attempts;
      totals.lostAtGateway += context.gateway.lost;
      totals.leftUnknown += check.unknown;
      totals.returns += context.gateway.returns;
      totals.chargebacks += context.gateway.chargebacks;
      totals.reversals += context.gateway.reversals;
      const kinds = plan.operations.some((op) => op.kind === "production") ? " +production" : "";
      console.log(
        `sequence ${index}: ${plan.operations.length} operations${kinds}, faults: ${context.faults.apiKills} api kills, ` +
          `${context.faults.workerKills} worker kills, ${dropped} dropped answers, ` +
          `${context.gateway.lost} lost with stq silent, ${context.gateway.returns} returns, ` +
          `${context.gateway.chargebacks} chargebacks; ` +
          `${check.attempts} attempts checked (${check.approved} approved); ` +
          `${problems.length} mismatches; ${Math.round(performance.now() - sequenceStarted)} ms ` +
          `(${check.waitedMs} ms waiting for jobs and settling)`,
      );
      for (const problem of problems)
        console.log(
          `  MISMATCH seed ${seed} sequence ${index}: ${problem}\n  replay: npm run soak -- --seed ${seed} --start ${index} --sequences 1`,
        );
    }
  } finally {
    await handle.close();
    await cluster.close();
    if (!reuse) await adminQuery(`drop database if exists ${databaseName} with (force)`);
  }
  const seconds = (performance.now() - began) / 1000;
  console.log(`sequences run: ${totals.sequences}`);
  console.log(
    `operations: ${totals.operations} (payment attempts checked against the sandbox: ${totals.attempts})`,
  );
  console.log(
    `faults injected: ${totals.apiKills + totals.workerKills + totals.dropped} ` +
      `(api kills ${totals.apiKills}, worker kills ${totals.workerKills}, dropped answers ${totals.dropped}; ` +
      `requests without an answer ${totals.lostAnswers})`,
  );
  console.log(
    `after the first answer: ${totals.lostAtGateway} answers lost while stq said "no match", ` +
      `${totals.returns} ACH returns, ${totals.chargebacks} chargebacks (${totals.reversals} reversed); ` +
      `attempts left unknown for a person (no record at the gateway): ${totals.leftUnknown}`,
  );
  if (process.argv.includes("--answers"))
    for (const [tally, count] of [...answers].sort()) console.log(`  answers ${tally}: ${count}`);
  console.log(`5xx answers: ${totals.serverErrors}`);
  console.log(`mismatches: ${totals.mismatches} (5xx answers count as mismatches)`);
  console.log(
    `elapsed: ${seconds.toFixed(1)} s (${((seconds * 1000) / Math.max(totals.sequences, 1)).toFixed(0)} ms a sequence), load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  return totals.mismatches === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
