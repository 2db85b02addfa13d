// The ledger writer's throughput: postEntries posting one entry to each of 100,000 customers in one
// call (one database transaction), on PGlite and on PostgreSQL, with the books proved afterwards.
// Usage: npm run bench:post-entries [-- --pglite-only | --postgres-only]
// Target: at most 5 s on PostgreSQL on the 2-core machine.
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { DatabaseHandle } from "../apps/server/src/db/database.js";
import { queryRows } from "../apps/server/src/db/query-rows.js";
import { dbInt } from "../apps/server/src/db/row-schemas.js";
import { ledgerMismatches } from "../apps/server/src/modules/ledger/ledger-mismatches.js";
import { postEntries, type NewLedgerEntry } from "../apps/server/src/modules/ledger/post-entries.js";
import { measureOnFreshDatabases } from "./fresh-postgres.js";

const CUSTOMERS = Number(process.env.BENCH_POST_CUSTOMERS ?? 100_000);
const ROUNDS = 3;

const idRowSchema = z.object({ id: dbInt });

async function seedClient(
  handle: DatabaseHandle,
): Promise<{ clientId: number; codeId: number; customerIds: number[] }> {
  await handle.migrate();
  const [client] = await queryRows(
    handle.db,
    sql`insert into clients (client_no, client_name, address1, city, state, zip)
        values (900002, 'Posting Bench', '2 Bench St', 'Austin', 'TX', '73301') returning id`,
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
    insert into customers (client_id, customer_no, customer_name)
    select ${clientId}::bigint, g, 'Customer ' || g from generate_series(1, ${CUSTOMERS}::int) as g`);
  // Statistics, as autovacuum (PostgreSQL) or the start-up analyze (PGlite) keep them on a live system.
  await handle.db.execute(sql`analyze`);
  const rows = await queryRows(
    handle.db,
    sql`select id from customers where client_id = ${clientId} order by id`,
    idRowSchema,
  );
  return { clientId, codeId: Number(code?.id), customerIds: rows.map((row) => row.id) };
}

async function measure(handle: DatabaseHandle, label: string): Promise<void> {
  const { clientId, codeId, customerIds } = await seedClient(handle);
  console.log(`${label}: ${customerIds.length} customers`);
  for (let round = 1; round <= ROUNDS; round += 1) {
    const entries: NewLedgerEntry[] = customerIds.map((customerId, index) => ({
      customerId,
      codeId,
      codeType: "charge",
      description: `Monthly service, round ${round}`,
      rate: `${10 + (index % 50)}.25000`,
      quantity: "1.00000",
      serviceDate: "2026-11-01",
      transactionType: "bulk",
    }));
    const started = performance.now();
    const result = await handle.db.transaction((tx) => postEntries(tx, { clientId }, entries));
    const seconds = (performance.now() - started) / 1000;
    const posted = result.ids.filter((id) => id !== null).length;
    console.log(
      `  round ${round}: postEntries of ${posted} entries in ${seconds.toFixed(2)} s ` +
        `(${Math.round(posted / seconds)} entries/s), total ${result.total}`,
    );
  }
  const mismatches = await ledgerMismatches(handle.db, { clientId });
  console.log(
    `  doctor: ${mismatches.length === 0 ? "every balance equals its ledger" : `${mismatches.length} mismatches`}`,
  );
}

await measureOnFreshDatabases("cyclebill_bench_post_entries", 2, measure);
