import { sql } from "drizzle-orm";
import type { Database } from "../db/database.js";
import { queryRows } from "../db/query-rows.js";

export type LedgerMismatch = {
  clientId: number;
  customerId: number;
  totalBalance: string;
  ledgerSum: string;
};

/** Customers whose stored balance differs from the sum of their ledger; empty when the books balance. */
export async function ledgerMismatches(db: Database): Promise<LedgerMismatch[]> {
  const rows = await queryRows<{ client_id: number; id: number; total_balance: string; ledger_sum: string }>(
    db,
    sql`
    select c.client_id, c.id, c.total_balance::text as total_balance, coalesce(sum(t.ledger_amount), 0)::text as ledger_sum
    from customers c
    left join transactions t on t.client_id = c.client_id and t.customer_id = c.id
    group by c.client_id, c.id, c.total_balance
    having c.total_balance <> coalesce(sum(t.ledger_amount), 0)`,
  );
  return rows.map((row) => ({
    clientId: Number(row.client_id),
    customerId: Number(row.id),
    totalBalance: row.total_balance,
    ledgerSum: row.ledger_sum,
  }));
}
