import { sql, type SQL } from "drizzle-orm";
import { addDays, ageBalance, type AgeingBuckets, type Debit, type LaterEntries } from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDecimal, dbInt } from "../../db/row-schemas.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import { businessToday } from "../../clock.js";
import { ageingBucketsSql } from "./ageing.sql.js";

/** A row of ageingBandsQuery: a customer's balance as of the date and its debits by age band. */
export const bandRowSchema = z.object({
  customer_id: dbInt,
  balance: dbDecimal,
  band0: dbDecimal,
  band30: dbDecimal,
  band60: dbDecimal,
  band90: dbDecimal,
});
export type BandRow = z.output<typeof bandRowSchema>;

export type CustomerAgeing = { customerId: number; balance: string } & AgeingBuckets;

/** The day `days` before `day` (the one calendar's addDays). */
const daysBefore = (day: string, days: number): string => addDays(day, -days);

/** One array parameter, not one per customer: a chunk of 500 is planned and bound as fast as one. */
function idFilter(column: string, customerIds: readonly number[] | undefined) {
  if (customerIds === undefined) return sql``;
  return sql`and ${sql.raw(column)} = any(${sqlArray(customerIds, "bigint")})`;
}

/**
 * What ageing a customer as of a date needs, from the ledger: the balance as of that date (the kept
 * balance less every entry dated after it) and the debits of the last 120 days summed by age band
 * (0-29, 30-59, 60-89, 90-119 days). First-in-first-out ageing needs nothing more: the balance is
 * made of the newest debits, and whatever the bands do not explain is over 90 days old.
 */
async function ageingBands(
  db: Executor,
  clientId: number,
  asOf: string,
  customerIds: readonly number[] | undefined,
  later: LaterEntries,
): Promise<BandRow[]> {
  return queryRows(
    db,
    ageingBandsQuery(clientId, asOf, (column) => idFilter(column, customerIds), later),
    bandRowSchema,
  );
}

/**
 * The date bounds of LaterEntries in SQL: which entries make up the balance ("later": those
 * subtracted from the kept balance) and the upper bound of the newest band's debits.
 */
function laterBounds(asOf: string, later: LaterEntries): { later: SQL; through: SQL } {
  return later === "left-out"
    ? { later: sql`t.service_date > ${asOf}::date`, through: sql`and t.service_date <= ${asOf}::date` }
    : { later: sql`false`, through: sql`` };
}

/**
 * The statement behind ageingBands, for the customers `only` picks (a condition on the named
 * customer id column, empty for all): callers may embed it in a larger statement.
 */
export function ageingBandsQuery(
  clientId: number,
  asOf: string,
  only: (column: string) => SQL,
  later: LaterEntries = "left-out",
): SQL {
  const from = daysBefore(asOf, 119);
  const bounds = laterBounds(asOf, later);
  return sql`
    with later as (
      select t.customer_id, sum(t.ledger_amount) as amount
      from transactions t
      where t.client_id = ${clientId} and ${bounds.later} ${only("t.customer_id")}
      group by t.customer_id
    ),
    bands as (
      select t.customer_id,
             sum(t.ledger_amount) filter (where t.service_date > ${asOf}::date - 30) as band0,
             sum(t.ledger_amount) filter (where t.service_date <= ${asOf}::date - 30 and t.service_date > ${asOf}::date - 60) as band30,
             sum(t.ledger_amount) filter (where t.service_date <= ${asOf}::date - 60 and t.service_date > ${asOf}::date - 90) as band60,
             sum(t.ledger_amount) filter (where t.service_date <= ${asOf}::date - 90) as band90
      from transactions t
      where t.client_id = ${clientId} and t.ledger_amount > 0
        and t.service_date >= ${from}::date ${bounds.through} ${only("t.customer_id")}
      group by t.customer_id
    )
    select c.id as customer_id,
           (c.total_balance - coalesce(l.amount, 0))::text as balance,
           coalesce(b.band0, 0)::text as band0, coalesce(b.band30, 0)::text as band30,
           coalesce(b.band60, 0)::text as band60, coalesce(b.band90, 0)::text as band90
    from customers c
    left join later l on l.customer_id = c.id
    left join bands b on b.customer_id = c.id
    where c.client_id = ${clientId} ${only("c.id")}
    order by c.id`;
}

/** One customer's ageing from its band sums, by the domain's ageBalance. */
function ageBandRow(row: BandRow, asOf: string): CustomerAgeing {
  // One debit per band, dated at the band's newest day: the same buckets as every debit apart.
  const debits: Debit[] = [
    { date: asOf, amount: row.band0 },
    { date: daysBefore(asOf, 30), amount: row.band30 },
    { date: daysBefore(asOf, 60), amount: row.band60 },
    { date: daysBefore(asOf, 90), amount: row.band90 },
  ];
  return {
    customerId: row.customer_id,
    balance: row.balance,
    ...ageBalance(row.balance, debits, asOf),
  };
}

/**
 * Ages customers' balances as of a date with the domain's one rule, ageBalance (first in, first
 * out), fed from the ledger as of that date (entries dated after it left out, so a statement's
 * buckets add up to its new balance, the ledger's balance at its date). Every screen, export,
 * statement and late fee ages through here (or through ageClientTotals, the same rule summed in SQL
 * for a whole client).
 */
export async function ageCustomerBalances(
  db: Executor,
  clientId: number,
  asOf: string,
  customerIds?: readonly number[],
  later: LaterEntries = "left-out",
): Promise<CustomerAgeing[]> {
  if (customerIds !== undefined && customerIds.length === 0) return [];
  const rows = await ageingBands(db, clientId, asOf, customerIds, later);
  return rows.map((row) => ageBandRow(row, asOf));
}

/**
 * Customers' ageing now: as of today, counting everything posted (entries dated after today are
 * current), so the buckets add up to the kept balance every screen shows beside them.
 */
export function ageCustomersNow(
  db: Executor,
  clientId: number,
  customerIds?: readonly number[],
): Promise<CustomerAgeing[]> {
  return ageCustomerBalances(db, clientId, businessToday(), customerIds, "current");
}

export type ClientAgeing = AgeingBuckets & { balance: string };

const clientAgeingRowSchema = z.object({
  balance: dbDecimal,
  current: dbDecimal,
  days30: dbDecimal,
  days60: dbDecimal,
  days90: dbDecimal,
  over90: dbDecimal,
});

/**
 * A whole client's ageing as of a date: the sum over its customers of ageBalance, computed in SQL by
 * its one SQL form, ageingBucketsSql (50,000 customers in one statement).
 */
export async function ageClientTotals(
  db: Executor,
  clientId: number,
  asOf: string,
  later: LaterEntries = "left-out",
): Promise<ClientAgeing> {
  const from = daysBefore(asOf, 119);
  const bounds = laterBounds(asOf, later);
  const aged = ageingBucketsSql(sql`balance`, [sql`b0`, sql`b1`, sql`b2`, sql`b3`]);
  const [row] = await queryRows(
    db,
    sql`
    with later as (
      select t.customer_id, sum(t.ledger_amount) as amount
      from transactions t
      where t.client_id = ${clientId} and ${bounds.later}
      group by t.customer_id
    ),
    bands as (
      select t.customer_id,
             sum(t.ledger_amount) filter (where t.service_date > ${asOf}::date - 30) as b0,
             sum(t.ledger_amount) filter (where t.service_date <= ${asOf}::date - 30 and t.service_date > ${asOf}::date - 60) as b1,
             sum(t.ledger_amount) filter (where t.service_date <= ${asOf}::date - 60 and t.service_date > ${asOf}::date - 90) as b2,
             sum(t.ledger_amount) filter (where t.service_date <= ${asOf}::date - 90) as b3
      from transactions t
      where t.client_id = ${clientId} and t.ledger_amount > 0
        and t.service_date >= ${from}::date ${bounds.through}
      group by t.customer_id
    ),
    balances as (
      select c.total_balance - coalesce(l.amount, 0) as balance,
             coalesce(b.b0, 0) as b0, coalesce(b.b1, 0) as b1, coalesce(b.b2, 0) as b2, coalesce(b.b3, 0) as b3
      from customers c
      left join later l on l.customer_id = c.id
      left join bands b on b.customer_id = c.id
      where c.client_id = ${clientId}
    ),
    aged as (
      select balance, ${aged.current} as current, ${aged.days30} as days30, ${aged.days60} as days60,
             ${aged.days90} as days90, ${aged.over90} as over90
      from balances
    )
    select coalesce(sum(balance), 0)::numeric(14,2)::text as balance,
           coalesce(sum(current), 0)::numeric(14,2)::text as current,
           coalesce(sum(days30), 0)::numeric(14,2)::text as "days30",
           coalesce(sum(days60), 0)::numeric(14,2)::text as "days60",
           coalesce(sum(days90), 0)::numeric(14,2)::text as "days90",
           coalesce(sum(over90), 0)::numeric(14,2)::text as "over90"
    from aged`,
    clientAgeingRowSchema,
  );
  return (
    row ?? {
      balance: "0.00",
      current: "0.00",
      days30: "0.00",
      days60: "0.00",
      days90: "0.00",
      over90: "0.00",
    }
  );
}
