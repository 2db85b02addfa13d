import { sql } from "drizzle-orm";
import type { Executor } from "../../db/database.js";

/** The advisory-lock namespace of statement numbering (pg_advisory_xact_lock's first key). */
const STATEMENT_NUMBERS_LOCK = 0x53_54_4e; // "STN"

/**
 * Holds, until the transaction ends, the right to draw the client's next statement numbers
 * (max + 1). Production chunks share the client row, so they need this to number one at a time;
 * take it after every row lock, so no one waits for a row while holding it.
 */
export async function lockStatementNumbers(tx: Executor, clientId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${STATEMENT_NUMBERS_LOCK}::int, ${clientId}::int)`);
}
