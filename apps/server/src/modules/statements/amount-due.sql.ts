import { sql, type SQL } from "drizzle-orm";

/**
 * The domain's amountDueNow as a SQL expression, for the lists that sort and filter by it in the
 * database (the documents list) and the card run's shared-card check: nothing once superseded, else
 * the new balance capped by what is owed now, never below zero. amount-due.test.ts holds the two to
 * the same figures over random inputs.
 */
export function amountDueNowSql(input: { newBalance: SQL; currentBalance: SQL; superseded: SQL }): SQL {
  return sql`(case when ${input.superseded} then 0
    else greatest(0, least(${input.newBalance}, ${input.currentBalance})) end)::numeric(14,2)`;
}
