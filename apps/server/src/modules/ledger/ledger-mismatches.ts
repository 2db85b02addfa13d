import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDecimal, dbInt } from "../../db/row-schemas.js";

export type LedgerMismatch = {
  clientId: number;
  customerId: number;
  totalBalance: string;
  ledgerSum: string;
  ledgerEntries: number;
  entryCount: number;
  ledgerAmountTotal: string;
  amountSum: string;
};

export type LedgerScope = {
  /** Only this client's customers. */
  clientId?: number;
  /** Only these customers (ids), e.g. one chunk of a job. */
  customerIds?: readonly number[];
};

const mismatchRowSchema = z.object({
  client_id: dbInt,
  id: dbInt,
  total_balance: dbDecimal,
  ledger_sum: dbDecimal,
  ledger_entries: dbInt,
  entry_count: dbInt,
  ledger_amount_total: dbDecimal,
  amount_sum: dbDecimal,
});

/**
 * Customers whose stored balance differs from the sum of their ledger, or whose ledger tallies
 * (entry count, sum of amounts) differ from the ledger; empty when the books balance. The
 * invariant the ledger writer keeps, checked after every API test and by `cli doctor`.
 */
export async function ledgerMismatches(db: Executor, scope: LedgerScope = {}): Promise<LedgerMismatch[]> {
  const byClient = scope.clientId === undefined ? sql`true` : sql`c.client_id = ${scope.clientId}`;
  const byCustomer =
    scope.customerIds === undefined
      ? sql`true`
      : sql`c.id = any(${`{${scope.customerIds.join(",")}}`}::bigint[])`;
  const rows = await queryRows(
    db,
    sql`
    select c.client_id, c.id, c.total_balance::text as total_balance, coalesce(sum(t.ledger_amount), 0)::text as ledger_sum,
           c.ledger_entries, count(t.id)::int as entry_count,
           c.ledger_amount_total::text as ledger_amount_total, coalesce(sum(t.amount), 0)::text as amount_sum
    from customers c
    left join transactions t on t.client_id = c.client_id and t.customer_id = c.id
    where ${byClient} and ${byCustomer}
    group by c.client_id, c.id, c.total_balance, c.ledger_entries, c.ledger_amount_total
    having c.total_balance <> coalesce(sum(t.ledger_amount), 0)
        or c.ledger_entries <> count(t.id)
        or c.ledger_amount_total <> coalesce(sum(t.amount), 0)
    order by c.client_id, c.id`,
    mismatchRowSchema,
  );
  return rows.map((row) => ({
    clientId: row.client_id,
    customerId: row.id,
    totalBalance: row.total_balance,
    ledgerSum: row.ledger_sum,
    ledgerEntries: row.ledger_entries,
    entryCount: row.entry_count,
    ledgerAmountTotal: row.ledger_amount_total,
    amountSum: row.amount_sum,
  }));
}
