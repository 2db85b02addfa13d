import { sql } from "drizzle-orm";
import { DUPLICATE_WINDOW_HOURS, toAmount } from "@cyclebill/domain";
import { z } from "zod";
import { currentClock } from "../../clock.js";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDecimal, dbInt } from "../../db/row-schemas.js";
import { sqlArray } from "../ledger/sql-arrays.js";

/** An entry about to be posted, as the duplicate rule compares it. */
export type DuplicateCandidate = { customerId: number; amount: string };

const recentRowSchema = z.object({ customer_id: dbInt, amount: dbDecimal });

/**
 * The one duplicate rule of staff entries, single adds and batches alike: an entry equals one
 * posted in the last DUPLICATE_WINDOW_HOURS (by the app clock) that is not voided and has the same
 * customer, code, amount and service date. Returns the customers whose candidate has such a twin.
 * Set-based (one query however many customers); the caller holds the customers' locks, so an
 * equal entry posted a moment earlier is seen.
 */
export async function recentDuplicates(
  tx: Executor,
  clientId: number,
  match: { codeId: number; serviceDate: string },
  candidates: readonly DuplicateCandidate[],
): Promise<Set<number>> {
  const found = new Set<number>();
  if (candidates.length === 0) return found;
  const since = new Date(currentClock().now().getTime() - DUPLICATE_WINDOW_HOURS * 3_600_000);
  const ids = [...new Set(candidates.map((candidate) => candidate.customerId))];
  const rows = await queryRows(
    tx,
    sql`select customer_id, amount::text as amount from transactions
        where client_id = ${clientId} and code_id = ${match.codeId}
          and service_date = ${match.serviceDate}::date and not voided
          and created_at > ${since.toISOString()}::timestamptz
          and customer_id = any(${sqlArray(ids, "bigint")})`,
    recentRowSchema,
  );
  const recent = new Set(rows.map((row) => `${row.customer_id} ${toAmount(row.amount)}`));
  for (const candidate of candidates)
    if (recent.has(`${candidate.customerId} ${toAmount(candidate.amount)}`)) found.add(candidate.customerId);
  return found;
}
