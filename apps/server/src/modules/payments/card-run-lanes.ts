/**
 * How many customers of one card run are being charged at once in this process, across all of its
 * chunks: CARD_RUN_CONCURRENCY (default 32). A gateway answers in hundreds of milliseconds, so a
 * run waits on many calls side by side; each charge still commits its attempt before the call and
 * settles it after (send-attempt.ts), so crash safety and idempotency do not depend on this.
 */
export function cardRunConcurrency(env: Record<string, string | undefined> = process.env): number {
  const value = env.CARD_RUN_CONCURRENCY?.trim();
  if (!value) return 32;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 256)
    throw new Error(`CARD_RUN_CONCURRENCY must be a whole number from 1 to 256, got "${value}"`);
  return limit;
}

/** Customers of a run charged at once (across its chunks): gateway calls overlap, each customer in its own transactions. */
export const CARD_RUN_CONCURRENCY = cardRunConcurrency();

type Lanes = { running: number; waiting: (() => void)[] };

const runs = new Map<number, Lanes>();

/** Runs `work` once fewer than `limit` charges of the same run are under way in this process. */
export async function inCardRunLane<T>(runId: number, limit: number, work: () => Promise<T>): Promise<T> {
  let lanes = runs.get(runId);
  if (!lanes) {
    lanes = { running: 0, waiting: [] };
    runs.set(runId, lanes);
  }
  const own = lanes;
  if (own.running >= limit) await new Promise<void>((resolve) => own.waiting.push(resolve));
  else own.running += 1;
  try {
    return await work();
  } finally {
    // A free lane passes straight to the next waiter; the last one out forgets the run.
    const next = own.waiting.shift();
    if (next) next();
    else {
      own.running -= 1;
      if (own.running === 0) runs.delete(runId);
    }
  }
}
