import { sql } from "drizzle-orm";
import type { AgeingBuckets } from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";

type AgeingRow = {
  customer_id: number | string;
  balance: string;
  current: string;
  days30: string;
  days60: string;
  days90: string;
  over90: string;
};

export type CustomerAgeing = { customerId: number; balance: string } & AgeingBuckets;

/**
 * Ages every customer's ledger balance in SQL, the same first-in-first-out rule as the domain's
 * ageBalance (tested against it): the balance is made of the newest debits, bucketed by age.
 */
export async function ageCustomerBalances(
  db: Executor,
  clientId: number,
  asOf: string,
  customerIds?: readonly number[],
): Promise<CustomerAgeing[]> {
  if (customerIds !== undefined && customerIds.length === 0) return [];
  const idList =
    customerIds === undefined
      ? sql``
      : sql.join(
          customerIds.map((id) => sql`${id}`),
          sql`, `,
        );
  const onlyCustomer = customerIds === undefined ? sql`` : sql`and c.id in (${idList})`;
  const onlyCustomerLedger = customerIds === undefined ? sql`` : sql`and t.customer_id in (${idList})`;
  const rows = await queryRows<AgeingRow>(
    db,
    sql`
    with balances as (
      -- The kept balance: it always equals the sum of the ledger (the ledger writer's invariant,
      -- which doctor proves), and reading it spares a second pass over every entry.
      select c.id as customer_id, c.total_balance as balance
      from customers c
      where c.client_id = ${clientId} ${onlyCustomer}
    ),
    debits as (
      select t.customer_id, t.service_date, t.ledger_amount as amount,
             sum(t.ledger_amount) over (
               partition by t.customer_id order by t.service_date desc, t.id desc
               rows between unbounded preceding and current row) as through
      from transactions t
      where t.client_id = ${clientId} and t.ledger_amount > 0 ${onlyCustomerLedger}
    ),
    allocated as (
      select d.customer_id, (${asOf}::date - d.service_date) as age,
             greatest(0, least(d.amount, b.balance - (d.through - d.amount))) as taken
      from debits d join balances b on b.customer_id = d.customer_id
      where b.balance > 0
    )
    select b.customer_id,
           b.balance::text as balance,
           (case when b.balance <= 0 then b.balance
                 else coalesce(sum(a.taken) filter (where a.age < 30), 0) end)::numeric(14,2)::text as current,
           coalesce(sum(a.taken) filter (where a.age >= 30 and a.age < 60), 0)::numeric(14,2)::text as days30,
           coalesce(sum(a.taken) filter (where a.age >= 60 and a.age < 90), 0)::numeric(14,2)::text as days60,
           coalesce(sum(a.taken) filter (where a.age >= 90 and a.age < 120), 0)::numeric(14,2)::text as days90,
           (case when b.balance <= 0 then 0
                 else coalesce(sum(a.taken) filter (where a.age >= 120), 0) + b.balance - coalesce(sum(a.taken), 0)
            end)::numeric(14,2)::text as over90
    from balances b
    left join allocated a on a.customer_id = b.customer_id
    group by b.customer_id, b.balance
    order by b.customer_id`,
  );
  return rows.map((row) => ({
    customerId: Number(row.customer_id),
    balance: row.balance,
    current: row.current,
    days30: row.days30,
    days60: row.days60,
    days90: row.days90,
    over90: row.over90,
  }));
}
