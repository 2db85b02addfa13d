// A Process CC card run of one client's customers against the gateway sandbox over HTTP: the
// customers with a stored card and a balance (odd dollars approve, even decline in TEST mode) are
// selected and charged, chunk after chunk in this process as one job worker runs them; each approved
// charge posts its payment through the ledger writer. Prints customers/s on PGlite and PostgreSQL.
// Usage: npm run bench:cards [-- --pglite-only | --postgres-only] [-- --latency-ms 300]
// --latency-ms: the sandbox answers each call that late, as a real gateway does (target with 300:
// ≥ 100 customers/s). Size: 10,000 customers (BENCH_CARD_CUSTOMERS overrides); BENCH_CARD_LANES
// chunks at once (default: as many as one worker process's card-run queue takes), with at most
// CARD_RUN_CONCURRENCY (default 32) charges in flight across them.
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { DatabaseHandle } from "../apps/server/src/db/database.js";
import { queryRows } from "../apps/server/src/db/query-rows.js";
import { dbDecimal, dbInt } from "../apps/server/src/db/row-schemas.js";
import { readJobRun } from "../apps/server/src/modules/jobs/job-runs.js";
import { ledgerMismatches } from "../apps/server/src/modules/ledger/ledger-mismatches.js";
import { postEntries } from "../apps/server/src/modules/ledger/post-entries.js";
import { buildRequest, callGateway } from "../apps/server/src/modules/payments/bluepay-client.js";
import type { PaymentGateway } from "../apps/server/src/modules/payments/payment-gateway.js";
import { CARD_RUN_CONCURRENCY, runCardRunChunk } from "../apps/server/src/modules/payments/run-card-run.js";
import { cardRunJob } from "../apps/server/src/jobs/card-run.job.js";
import { startBulkCardRun, type CardRunChunk } from "../apps/server/src/modules/payments/start-card-run.js";
import { sealSecret } from "../apps/server/src/modules/secrets/secret-box.js";
import { createUser } from "../apps/server/src/modules/users/create-user.js";
import { measureOnFreshDatabases } from "./fresh-postgres.js";

const CUSTOMERS = Number(process.env.BENCH_CARD_CUSTOMERS ?? 10_000);
const { concurrency } = cardRunJob.queue;
const LANES = Number(process.env.BENCH_CARD_LANES ?? (typeof concurrency === "number" ? concurrency : 1));
const latencyAt = process.argv.indexOf("--latency-ms");
const LATENCY_MS = latencyAt >= 0 ? Number(process.argv[latencyAt + 1]) : 0;
const SECRETS_KEY = "card-run-bench";
const ACCOUNT = { accountId: "100000009999", secretKey: "CARDRUNBENCHSECRETKEY00000000001" };

const idRowSchema = z.object({ id: dbInt });
const customerRowSchema = z.object({ id: dbInt, customer_no: dbInt });

/** The client, its customers with balances (through the ledger writer) and one stored card each. */
async function generate(handle: DatabaseHandle, sandbox: Sandbox) {
  await handle.migrate();
  const { db } = handle;
  const [client] = await queryRows(
    db,
    sql`insert into clients (client_no, client_name, bluepay_account_id, bluepay_secret_key_encrypted)
        values (900016, 'Card Run Bench', ${ACCOUNT.accountId}, ${sealSecret(SECRETS_KEY, ACCOUNT.secretKey)})
        returning id`,
    idRowSchema,
  );
  const clientId = Number(client?.id);
  const [code] = await queryRows(
    db,
    sql`insert into codes (client_id, code, description, code_type)
        values (${clientId}, 100, 'Service', 'charge') returning id`,
    idRowSchema,
  );
  const customers = await queryRows(
    db,
    sql`insert into customers (client_id, customer_no, customer_name, first_name, last_name)
        select ${clientId}::bigint, g, 'Customer ' || g, 'Card', 'Customer ' || g
        from generate_series(1, ${CUSTOMERS}::int) as g
        returning id, customer_no`,
    customerRowSchema,
  );
  await db.transaction((tx) =>
    postEntries(
      tx,
      { clientId },
      customers.map((customer) => ({
        customerId: customer.id,
        codeId: Number(code?.id),
        codeType: "charge" as const,
        description: "Service",
        rate: `${20 + (customer.customer_no % 9)}.${String(customer.customer_no % 100).padStart(2, "0")}`,
        quantity: "1",
        serviceDate: "2026-11-01",
      })),
    ),
  );
  // One $0.00 AUTH stores the card; every customer's method names it (the sandbox only needs a
  // MASTER_ID it knows, and its duplicate window is off for this bench). Each method shows its own
  // last four digits, as each customer of a real run pays with its own card: the run's check for
  // another customer with the same card (shared-card.ts) then finds none, as it mostly does.
  const auth = await callGateway(
    sandbox.bp20postUrl,
    buildRequest(ACCOUNT, {
      transType: "AUTH",
      mode: "TEST",
      amount: "0.00",
      account: { kind: "card", number: "4111111111111111", expire: "1299" },
    }),
    { timeoutMs: 10_000 },
  );
  if (auth.status !== "approved") throw new Error(`the AUTH was not approved: ${JSON.stringify(auth)}`);
  await db.execute(
    sql`insert into customer_payment_methods (client_id, customer_id, kind, token, mask, card_type, expiry)
        select client_id, id, 'card', ${auth.transId},
               'xxxxxxxxxxxx' || lpad((customer_no % 10000)::text, 4, '0'), ${auth.cardType}, '1299'
        from customers where client_id = ${clientId}`,
  );
  await db.execute(sql`analyze`);
  return { clientId, ids: customers.map((customer) => customer.id) };
}

/** The run's attempts: approved and declined, and the approved amounts' sum. */
const tallyRowSchema = z.object({ approved: dbInt, declined: dbInt, total: dbDecimal });

async function measure(handle: DatabaseHandle, label: string): Promise<void> {
  const sandbox = await startSandbox({
    accounts: [ACCOUNT],
    demoAccount: false,
    duplicateWindowMs: 0,
    faults: { latencyMs: LATENCY_MS },
  });
  try {
    const generating = performance.now();
    const { clientId, ids } = await generate(handle, sandbox);
    console.log(
      `${label}: ${CUSTOMERS} customers with a stored card generated in ` +
        `${((performance.now() - generating) / 1000).toFixed(1)} s; ${LANES} chunk(s) at once, ` +
        `at most ${CARD_RUN_CONCURRENCY} charges in flight; sandbox latency ${LATENCY_MS} ms`,
    );
    const owner = await createUser(handle.db, {
      email: "bench-owner@example.test",
      password: null,
      clientId,
    });
    const user = { ...owner, username: owner.email, isAdmin: false, isClientStaff: false, clientId };
    const gateway: PaymentGateway = {
      url: sandbox.bp20postUrl,
      mode: "TEST",
      timeoutMs: 30_000,
      secretsKey: SECRETS_KEY,
      installationId: "BENCH00000",
    };
    const queue: CardRunChunk[] = [];
    const started = performance.now();
    const run = await startBulkCardRun(handle.db, { clientId, user }, ids, (_tx, chunks) => {
      queue.push(...chunks.map((chunk) => chunk.payload));
      return Promise.resolve();
    });
    // A chunk left with an attempt the gateway never answered is retried later, as its job is
    // (it settles that attempt then and never charges twice); the retries are counted.
    let retries = 0;
    let waiting = 0;
    const lane = async (): Promise<void> => {
      for (let chunk = queue.shift(); chunk; chunk = queue.shift())
        try {
          await runCardRunChunk(handle.db, gateway, chunk);
        } catch (error) {
          if (retries >= 50) throw error;
          retries += 1;
          waiting += 1;
          await new Promise((resolve) => setTimeout(resolve, 5_000));
          waiting -= 1;
          queue.push(chunk);
        }
      if (waiting > 0) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        return lane();
      }
    };
    await Promise.all(Array.from({ length: LANES }, lane));
    const seconds = (performance.now() - started) / 1000;

    const finished = await readJobRun(handle.db, { clientId, runId: run.job.id });
    const [tally] = await queryRows(
      handle.db,
      sql`select count(*) filter (where status = 'approved')::int as approved,
                 count(*) filter (where status = 'declined')::int as declined,
                 coalesce(sum(amount) filter (where status = 'approved'), 0)::text as total
          from payment_attempts where client_id = ${clientId} and card_run_id = ${run.job.id}`,
      tallyRowSchema,
    );
    const sales = sandbox.transactions().filter((transaction) => transaction.transType === "SALE").length;
    const mismatches = await ledgerMismatches(handle.db, { clientId });
    const [one, five, fifteen] = loadavg();
    console.log(
      `  run: ${finished?.status}, ${finished?.done}/${finished?.total} customers, ${seconds.toFixed(1)} s, ` +
        `${Math.round(CUSTOMERS / seconds)} customers/s, ${retries} chunk retries (load average ${one?.toFixed(2)} ${five?.toFixed(2)} ${fifteen?.toFixed(2)})`,
    );
    console.log(
      `  ${tally?.approved} approved (${tally?.total} posted), ${tally?.declined} declined; ` +
        `${sales} sales in the sandbox's record`,
    );
    console.log(
      `  doctor: ${mismatches.length === 0 ? "every balance equals its ledger" : `${mismatches.length} mismatches`}`,
    );
  } finally {
    await sandbox.close();
  }
}

await measureOnFreshDatabases("cyclebill_bench_cards", 10, measure);
