// The production benchmarks' client: many customers, each with last month's statement, a monthly
// recurring charge, and a third of them 45 days overdue (a late fee each).
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { DatabaseHandle } from "../apps/server/src/db/database.js";
import { queryRows } from "../apps/server/src/db/query-rows.js";
import { dbInt } from "../apps/server/src/db/row-schemas.js";
import { postEntries } from "../apps/server/src/modules/ledger/post-entries.js";

export const CYCLE = 15;
export const RUN_DATE = "2026-11-15";

const idRowSchema = z.object({ id: dbInt });

/**
 * The client, its customers and charges, set-based; the overdue third posted through the ledger
 * writer. `emailShare` of the customers (spread evenly) take their statements by email.
 */
export async function generateProductionClient(handle: DatabaseHandle, customers: number, emailShare = 0) {
  await handle.migrate();
  const [client] = await queryRows(
    handle.db,
    sql`insert into clients (client_no, client_name, address1, city, state, zip, normal_cycle, date_last_billing,
          finance_flag, thirty_day_rate_or_percent, day_charge_30_day)
        values (900015, 'Production Bench', '15 Bench St', 'Austin', 'TX', '73301', ${CYCLE}, '2026-10-15',
          '1', 'rate', 5.00) returning id`,
    idRowSchema,
  );
  const clientId = Number(client?.id);
  const [code] = await queryRows(
    handle.db,
    sql`insert into codes (client_id, code, description, code_type)
        values (${clientId}, 100, 'Monthly service', 'charge') returning id`,
    idRowSchema,
  );
  const codeId = Number(code?.id);
  await handle.db.execute(sql`
    insert into customers (client_id, customer_no, customer_name, address1, city, state, zip, email, pull_flag)
    select ${clientId}::bigint, g, 'Customer ' || g, g || ' Main St', 'Austin', 'TX', '73301',
           case when g % 100 < ${Math.round(emailShare * 100)}::int then 'customer' || g || '@bench.example' else '' end,
           case when g % 100 < ${Math.round(emailShare * 100)}::int then 'E' else 'A' end
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
  const overdue = await queryRows(
    handle.db,
    sql`select id from customers where client_id = ${clientId} and customer_no % 3 = 0 order by id`,
    idRowSchema,
  );
  await handle.db.transaction((tx) =>
    postEntries(
      tx,
      { clientId },
      overdue.map((row) => ({
        customerId: row.id,
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
