// Data generator: one client with many customers and a large ledger, written with set-based SQL
// (generate_series) so a million postings take seconds, then balances and month-to-date figures
// are set from the ledger so the books balance exactly as postings would leave them.
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../apps/server/src/db/database.js";
import { queryRows } from "../apps/server/src/db/query-rows.js";
import { dbInt } from "../apps/server/src/db/row-schemas.js";

export type LargeClient = { clientId: number; ownerUserId: number; customers: number; transactions: number };

export const BENCH_CLIENT_NO = 900_001;

const largeClientRowSchema = z.object({
  client_id: dbInt,
  owner: dbInt,
  customers: dbInt,
  transactions: dbInt,
});

export async function findLargeClient(db: Database): Promise<LargeClient | null> {
  const [row] = await queryRows(
    db,
    sql`select c.id as client_id, u.id as owner,
               (select count(*)::int from customers where client_id = c.id) as customers,
               (select count(*)::int from transactions where client_id = c.id) as transactions
        from clients c join users u on u.client_id = c.id and not u.is_client_staff
        where c.client_no = ${BENCH_CLIENT_NO} limit 1`,
    largeClientRowSchema,
  );
  return row
    ? {
        clientId: row.client_id,
        ownerUserId: row.owner,
        customers: row.customers,
        transactions: row.transactions,
      }
    : null;
}

/** All or nothing: a failed or interrupted generation leaves no half-made client behind. */
export async function generateLargeClient(
  db: Database,
  size: { customers: number; transactions: number },
  log: (line: string) => void = () => undefined,
): Promise<LargeClient> {
  // No manual VACUUM or ANALYZE: the benchmarks see the statistics the app itself keeps (autovacuum
  // on PostgreSQL; on PGlite the start-up ANALYZE and the periodic refresh-statistics job).
  return db.transaction((tx) => generate(tx as unknown as Database, size, log));
}

const idRowSchema = z.object({ id: dbInt });
/** The client's first customer id (null without customers). */
const firstIdRowSchema = z.object({ first: dbInt.nullable() });
const codeRowSchema = z.object({ id: dbInt, code: dbInt });

async function generate(
  db: Database,
  size: { customers: number; transactions: number },
  log: (line: string) => void,
): Promise<LargeClient> {
  const started = Date.now();
  const [client] = await queryRows(
    db,
    sql`insert into clients (client_no, client_name, address1, city, state, zip)
        values (${BENCH_CLIENT_NO}, 'Benchmark Utilities', '1 Bench St', 'Austin', 'TX', '73301') returning id`,
    idRowSchema,
  );
  const clientId = Number(client?.id);
  const [owner] = await queryRows(
    db,
    sql`insert into users (username, email, first_name, last_name, client_id)
        values ('bench-owner@example.com', 'bench-owner@example.com', 'Bench', 'Owner', ${clientId}) returning id`,
    idRowSchema,
  );
  await db.execute(sql`
    insert into codes (client_id, code, description, code_type) values
      (${clientId}, 100, 'Monthly service', 'charge'), (${clientId}, 110, 'Extra visit', 'charge'),
      (${clientId}, 200, 'Payment', 'payment'), (${clientId}, 300, 'Credit', 'adjust'), (${clientId}, 310, 'Debit', 'debit')`);
  const firstNames = sql`array['Ava','Ben','Carla','Dev','Elena','Frank','Grace','Hector','Ines','Jamal','Kira','Liam','Mona','Nils','Omar','Pia']`;
  const lastNames = sql`array['Anders','Brooks','Castillo','Dubois','Eriksen','Fischer','Garcia','Hughes','Ito','Jensen','Khan','Larsen','Moreau','Novak']`;
  await db.execute(sql`
    insert into customers (client_id, customer_no, customer_name, first_name, last_name, email, address1, city, state, zip,
                           phone1, pull_flag, bi_pull_flag, open_date, delete_flag, deleted)
    select ${clientId}::bigint, 100000 + g,
           (${firstNames})[1 + g % 16] || ' ' || (${lastNames})[1 + (g * 7) % 14] || ' ' || g,
           (${firstNames})[1 + g % 16], (${lastNames})[1 + (g * 7) % 14] || ' ' || g,
           'customer' || g || '@bench.example', (100 + g % 900) || ' Main St', 'Austin', 'TX', lpad((73000 + g % 999)::text, 5, '0'),
           '(512)-555-' || lpad((g % 10000)::text, 4, '0'),
           (array['A','A','A','E','M','P'])[1 + g % 6], (array['M','M','M','E','B','M'])[1 + g % 6],
           date '2024-01-01' + (g % 700),
           case when g % 97 = 0 then 'S' else null end, g % 211 = 0
    from generate_series(1, ${size.customers}::int) as g`);
  log(`customers: ${size.customers} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const [range] = await queryRows(
    db,
    sql`select min(id) as first from customers where client_id = ${clientId}`,
    firstIdRowSchema,
  );
  const first = Number(range?.first);
  const codeIds = await queryRows(
    db,
    sql`select id, code from codes where client_id = ${clientId} order by code`,
    codeRowSchema,
  );
  const codeId = (code: number) => Number(codeIds.find((row) => row.code === code)?.id);
  // Postings: 60% monthly charges, 10% extra visits, 25% payments, 3% credits, 2% debits.
  await db.execute(sql`
    insert into transactions (client_id, customer_id, code_id, description, quantity, rate, amount, ledger_amount,
                              service_date, transaction_status, transaction_type, created_at)
    select ${clientId}::bigint, ${first}::bigint + (g % ${size.customers}::int), kind.code_id, kind.description, 1, amount, amount,
           amount * kind.sign, date '2025-12-01' + (g % 355), 'new', 'bulk', timestamptz '2025-12-01' + (g % 355) * interval '1 day'
    from generate_series(1, ${size.transactions}::int) as g
    cross join lateral (select ((g::bigint * 7919) % 9000 + 1000)::numeric(14,2) / 100 as amount) a
    cross join lateral (
      select case when g % 100 < 60 then ${codeId(100)}::bigint when g % 100 < 70 then ${codeId(110)}::bigint
                  when g % 100 < 95 then ${codeId(200)}::bigint when g % 100 < 98 then ${codeId(300)}::bigint else ${codeId(310)}::bigint end as code_id,
             case when g % 100 < 70 or g % 100 >= 98 then 1 else -1 end as sign,
             case when g % 100 < 60 then 'Monthly service' when g % 100 < 70 then 'Extra visit'
                  when g % 100 < 95 then 'Payment' when g % 100 < 98 then 'Credit' else 'Debit' end as description
    ) kind`);
  log(`transactions: ${size.transactions} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await db.execute(sql`
    update customers c set total_balance = s.total, mtd_charges = s.charges, mtd_payments = s.payments,
                           mtd_cr_adj = s.credits, mtd_db_adj = s.debits, last_pay_date = s.last_pay
    from (select t.customer_id, sum(t.ledger_amount) as total,
                 coalesce(sum(t.amount) filter (where k.code_type = 'charge' and t.service_date >= date_trunc('month', current_date)), 0) as charges,
                 coalesce(sum(t.amount) filter (where k.code_type = 'payment' and t.service_date >= date_trunc('month', current_date)), 0) as payments,
                 coalesce(sum(t.amount) filter (where k.code_type = 'adjust' and t.service_date >= date_trunc('month', current_date)), 0) as credits,
                 coalesce(sum(t.amount) filter (where k.code_type = 'debit' and t.service_date >= date_trunc('month', current_date)), 0) as debits,
                 max(t.service_date) filter (where k.code_type = 'payment') as last_pay
          from transactions t join codes k on k.client_id = t.client_id and k.id = t.code_id
          where t.client_id = ${clientId} group by t.customer_id) s
    where c.client_id = ${clientId} and c.id = s.customer_id`);
  // Archived customers have a zero balance: settle each with a credit (or a debit for a credit balance).
  await db.execute(sql`
    insert into transactions (client_id, customer_id, code_id, description, quantity, rate, amount, ledger_amount, service_date)
    select client_id, id, case when total_balance > 0 then ${codeId(300)}::bigint else ${codeId(310)}::bigint end, 'Write-off', 1,
           abs(total_balance), abs(total_balance), -total_balance, current_date
    from customers where client_id = ${clientId} and deleted and total_balance <> 0`);
  await db.execute(sql`update customers set total_balance = 0 where client_id = ${clientId} and deleted`);
  // The ledger tallies the app keeps beside each balance.
  await db.execute(sql`
    update customers c set ledger_entries = s.entries, ledger_amount_total = s.amount_total
    from (select customer_id, count(*)::int as entries, sum(amount) as amount_total
          from transactions where client_id = ${clientId} group by customer_id) s
    where c.client_id = ${clientId} and c.id = s.customer_id`);
  log(`balances in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return {
    clientId,
    ownerUserId: Number(owner?.id),
    customers: size.customers,
    transactions: size.transactions,
  };
}
