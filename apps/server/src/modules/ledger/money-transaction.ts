import type { Database, Executor } from "../../db/database.js";
import { pgErrorCode } from "../../db/pg-errors.js";

type TransactionRunner = Pick<Database, "transaction"> | Executor;

const RETRYABLE = new Set(["40P01", "40001"]); // deadlock detected, serialization failure
const MAX_ATTEMPTS = 4;

/**
 * Runs a database transaction that moves money. Locks are always taken in one order, but a
 * deadlock or serialization failure can still be chosen by PostgreSQL; the whole transaction is
 * then retried (a few times, with a short jittered pause), never shown to the user as a 500.
 */
export async function moneyTransaction<T>(
  db: TransactionRunner,
  work: (tx: Executor) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction(async (tx) => work(tx as unknown as Executor));
    } catch (error) {
      const state = pgErrorCode(error);
      if (!state || !RETRYABLE.has(state) || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20));
    }
  }
}
