// The load command's data besides the benchmark client (bench-data.ts): a second, smaller client
// whose customers were billed by a real production run, so their statements carry real pay codes
// for the public payment lookups and real statement PDFs. Made once in the load database and reused.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { statementPayToken } from "@cyclebill/domain";
import { loadConfig } from "../apps/server/src/config.js";
import type { DatabaseHandle } from "../apps/server/src/db/database.js";
import { queryRows } from "../apps/server/src/db/query-rows.js";
import { dbInt, dbText } from "../apps/server/src/db/row-schemas.js";
import { startJobs } from "../apps/server/src/jobs/index.js";
import { getProductionRun } from "../apps/server/src/modules/production/production-runs.js";
import { startProductionRun } from "../apps/server/src/modules/production/start-production.js";
import { createUser } from "../apps/server/src/modules/users/create-user.js";

const PAYERS_CLIENT_NO = 900_600;
const PAYERS_CUSTOMERS = Number(process.env.LOAD_PAYERS ?? 2_000);
/** A cycle no other bench client bills on, and a fixed past run date (the run is made once). */
const CYCLE = 20;
const RUN_DATE = "2026-10-20";

export type LoadTargets = {
  /** The benchmark client's customer ids run from firstCustomer, customers of them. */
  firstCustomer: number;
  customers: number;
  /** Customers that take both payments and charges (not archived, not marked for deletion). */
  postable: number[];
  paymentCodeId: number;
  chargeCodeId: number;
  payersClientId: number;
  payersOwnerUserId: number;
  /** Statement ids of the payers client (PDFs) and their public pay tokens (lookups). */
  statementIds: number[];
  payTokens: string[];
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const idRowSchema = z.object({ id: dbInt });

/** The payers client, its customers with a monthly charge, and its owner; the run is made after. */
async function createPayersClient(handle: DatabaseHandle): Promise<number> {
  const [client] = await queryRows(
    handle.db,
    sql`insert into clients (client_no, client_name, address1, city, state, zip, normal_cycle, date_last_billing)
        values (${PAYERS_CLIENT_NO}, 'Load Payers', '20 Load St', 'Austin', 'TX', '73301', ${CYCLE}, '2026-09-20')
        returning id`,
    idRowSchema,
  );
  const clientId = Number(client?.id);
  const [code] = await queryRows(
    handle.db,
    sql`insert into codes (client_id, code, description, code_type)
        values (${clientId}, 100, 'Monthly service', 'charge') returning id`,
    idRowSchema,
  );
  await handle.db.execute(sql`
    insert into customers (client_id, customer_no, customer_name, address1, city, state, zip)
    select ${clientId}::bigint, g, 'Payer ' || g, g || ' Main St', 'Austin', 'TX', '73301'
    from generate_series(1, ${PAYERS_CUSTOMERS}::int) as g`);
  await handle.db.execute(sql`
    insert into recurring_charges (client_id, customer_id, code_id, description, rate, quantity, amount,
      start_month, end_month)
    select client_id, id, ${Number(code?.id)}::bigint, 'Monthly service', 25, 1, 25, 1, 12
    from customers where client_id = ${clientId}`);
  await createUser(handle.db, { email: "load-payers-owner@example.com", password: null, clientId });
  return clientId;
}

const buildingPoolsRowSchema = z.object({ building: dbInt });

/** Runs production for the payers client with an in-process worker, and waits for its pools. */
async function bill(handle: DatabaseHandle, clientId: number): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "cyclebill-load-setup-"));
  const jobs = await startJobs({
    db: handle.db,
    backend: handle.jobBackend,
    settings: { ...loadConfig({ DATA_DIR: dataDir, JWT_SECRET: "load" }).jobs, pollSeconds: 0.5 },
    log: { info: () => undefined, warn: console.warn, error: console.error },
    work: true,
    services: {
      dataDir,
      publicUrl: "https://billing.example",
      mailer: { send: () => Promise.resolve() },
      gateway: { url: null, mode: "TEST", timeoutMs: 1000, secretsKey: "load", installationId: "BENCH00000" },
    },
  });
  try {
    const admin = await createUser(handle.db, {
      email: "load-admin@example.com",
      password: null,
      isAdmin: true,
    });
    const run = await startProductionRun(
      handle.db,
      { ...admin, username: admin.email, isAdmin: true, isClientStaff: false, clientId: null },
      { cycle: CYCLE, runDate: RUN_DATE, clientIds: [clientId], chunkSize: 500 },
      async (tx, steps) => {
        for (const step of steps)
          await jobs.enqueue("production-run", step.payload, { executor: tx, priority: step.priority });
      },
    );
    let status = run.status;
    while (status === "queued" || status === "running") {
      await sleep(500);
      status = (await getProductionRun(handle.db, run.id)).status;
    }
    if (status !== "done") throw new Error(`the payers' production run ended ${status}`);
    // Its pools (the printed PDFs) build after the run; the load should not share the machine with them.
    for (;;) {
      const [pools] = await queryRows(
        handle.db,
        sql`select count(*) filter (where state = 'building')::int as building from pools where client_id = ${clientId}`,
        buildingPoolsRowSchema,
      );
      if ((pools?.building ?? 0) === 0) break;
      await sleep(500);
    }
  } finally {
    await jobs.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The benchmark client's first customer and its payment and charge codes (null when missing). */
const benchRowSchema = z.object({
  first: dbInt.nullable(),
  payment: dbInt.nullable(),
  charge: dbInt.nullable(),
});
/** The payers client, its statements and its owner (null before one is made). */
const payersRowSchema = z.object({ id: dbInt, statements: dbInt, owner: dbInt.nullable() });
const statementRowSchema = z.object({ id: dbInt, pay_code: dbText });

/** Ids the traffic draws from; makes and bills the payers client the first time. */
export async function ensureLoadTargets(
  handle: DatabaseHandle,
  benchClientId: number,
  benchCustomers: number,
): Promise<LoadTargets> {
  const [bench] = await queryRows(
    handle.db,
    sql`select min(id) as first,
               (select min(id) from codes where client_id = ${benchClientId} and code = 200) as payment,
               (select min(id) from codes where client_id = ${benchClientId} and code = 110) as charge
        from customers where client_id = ${benchClientId}`,
    benchRowSchema,
  );
  let [payers] = await queryRows(
    handle.db,
    sql`select c.id, (select count(*)::int from statements s where s.client_id = c.id) as statements,
               (select min(u.id) from users u where u.client_id = c.id) as owner
        from clients c where c.client_no = ${PAYERS_CLIENT_NO}`,
    payersRowSchema,
  );
  if (!payers) {
    console.log(`making the payers client (${PAYERS_CUSTOMERS} customers) and its production run...`);
    await bill(handle, await createPayersClient(handle));
    [payers] = await queryRows(
      handle.db,
      sql`select c.id, (select count(*)::int from statements s where s.client_id = c.id) as statements,
                 (select min(u.id) from users u where u.client_id = c.id) as owner
          from clients c where c.client_no = ${PAYERS_CLIENT_NO}`,
      payersRowSchema,
    );
  }
  if (!payers || payers.statements === 0)
    throw new Error("the payers client has no statements: drop the load database and start again");
  const payersClientId = payers.id;
  const postable = await queryRows(
    handle.db,
    sql`select id from customers where client_id = ${benchClientId} and not deleted
          and coalesce(delete_flag, '') not in ('D', 'S') order by id`,
    idRowSchema,
  );
  const statementRows = await queryRows(
    handle.db,
    sql`select id, pay_code from statements where client_id = ${payersClientId} order by id`,
    statementRowSchema,
  );
  return {
    firstCustomer: Number(bench?.first),
    customers: benchCustomers,
    postable: postable.map((row) => row.id),
    paymentCodeId: Number(bench?.payment),
    chargeCodeId: Number(bench?.charge),
    payersClientId,
    payersOwnerUserId: Number(payers.owner),
    statementIds: statementRows.map((row) => row.id),
    payTokens: statementRows.map((row) => statementPayToken(payersClientId, row.pay_code)),
  };
}
