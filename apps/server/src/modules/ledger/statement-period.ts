import { sql } from "drizzle-orm";
import {
  MONTH_TO_DATE_BUCKETS,
  MONTH_TO_DATE_COLUMNS,
  addAmounts,
  codeTypesOfBucket,
  type StatementBoxes,
} from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";

export type AgeingSnapshot = {
  currentBalance: string;
  overdue30Days: string;
  overdue60Days: string;
  overdue90Days: string;
  overdueOver90Days: string;
};

/** What a statement billed, per month-to-date figure (late fees count in charges). */
export type BilledFigures = {
  charges: string;
  payments: string;
  creditAdjustments: string;
  debitAdjustments: string;
};

/** The month-to-date figures a statement's boxes billed. */
export function billedFigures(boxes: StatementBoxes): BilledFigures {
  return {
    charges: addAmounts(boxes.charges, boxes.lateFees),
    payments: boxes.payments,
    creditAdjustments: boxes.creditAdjustments,
    debitAdjustments: boxes.debitAdjustments,
  };
}

/**
 * Recomputes every customer's month-to-date figures of a client from the ledger entries dated
 * from `since` (used after loading back-dated history, e.g. the demo data).
 */
export async function recomputeMonthToDate(tx: Executor, clientId: number, since: string): Promise<void> {
  const sums = MONTH_TO_DATE_BUCKETS.map((bucket) => {
    const types = codeTypesOfBucket(bucket);
    return sql`${sql.raw(MONTH_TO_DATE_COLUMNS[bucket])} = coalesce((
      select sum(t.amount) from transactions t join codes k on k.client_id = t.client_id and k.id = t.code_id
      where t.client_id = c.client_id and t.customer_id = c.id and t.service_date >= ${since}::date
        and k.code_type in (${sql.join(
          types.map((type) => sql`${type}`),
          sql`, `,
        )})), 0)`;
  });
  await tx.execute(sql`update customers c set ${sql.join(sums, sql`, `)} where c.client_id = ${clientId}`);
}
