import { performance } from "node:perf_hooks";

/**
 * Keeps a job's lease while its process lives and the job makes progress: renews it every
 * `everyMs`, and again at each `progress()` the job reports, until it has reported none for
 * `stallMs`. So the queue's expiry can be short (a job whose worker died, kill -9 or a lost
 * machine, is retried by pg-boss's maintenance soon after its last beat), yet a live job of any
 * length is never cut, and one stuck in a live process is cut `stallMs` after its last progress.
 */
export async function withLeaseHeartbeat<T>(
  renewLease: () => Promise<void>,
  work: (progress: () => Promise<void>) => Promise<T>,
  options: { everyMs: number; stallMs: number },
): Promise<T> {
  // Monotonic time: how long since the last progress, not the app's date.
  let lastProgress = performance.now();
  let beating: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    if (performance.now() - lastProgress > options.stallMs) return;
    // One renewal at a time; a failed one (a database hiccup) leaves the next beat to try again.
    beating = beating.then(renewLease).catch(() => undefined);
  }, options.everyMs);
  timer.unref();
  try {
    return await work(async () => {
      lastProgress = performance.now();
      await renewLease();
    });
  } finally {
    clearInterval(timer);
    await beating;
  }
}
