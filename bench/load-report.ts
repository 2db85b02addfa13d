// The load command's printed figures: a row per call and the server's memory over the run.
import { readFileSync } from "node:fs";
import { percentile, type ScheduleResult } from "./load-schedule.js";

/** Resident set size of a process in MB from /proc/<pid>/status (0 when it is gone). */
export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Prints count, errors, p50 and p99 per call and overall; returns the errors. */
export function printCalls(result: ScheduleResult): number {
  let errors = 0;
  const all: number[] = [];
  console.log(
    `  ${"call".padEnd(24)} ${"count".padStart(7)} ${"errors".padStart(6)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)}  statuses`,
  );
  for (const [name, figures] of [...result.byCall].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = figures.latencies.sort((a, b) => a - b);
    all.push(...sorted);
    const failed = Object.values(figures.errors).reduce((sum, count) => sum + count, 0);
    errors += failed;
    const kinds = Object.entries(figures.errors)
      .filter(([, count]) => count > 0)
      .map(([kind, count]) => `${kind} ${count}`);
    const statuses = [...figures.statuses].map(([status, count]) => `${status}×${count}`).join(" ");
    console.log(
      `  ${name.padEnd(24)} ${String(sorted.length + failed).padStart(7)} ${String(failed).padStart(6)} ` +
        `${percentile(sorted, 0.5).toFixed(1).padStart(7)} ${percentile(sorted, 0.99).toFixed(1).padStart(7)}  ${statuses}` +
        (kinds.length ? ` (${kinds.join(", ")})` : ""),
    );
  }
  all.sort((a, b) => a - b);
  console.log(
    `  ${"all".padEnd(24)} ${String(result.completed).padStart(7)} ${String(errors).padStart(6)} ` +
      `${percentile(all, 0.5).toFixed(1).padStart(7)} ${percentile(all, 0.99).toFixed(1).padStart(7)}  ` +
      `achieved ${(result.completed / result.seconds).toFixed(1)} req/s over ${result.seconds.toFixed(1)} s, ` +
      `at most ${result.maxWaiting} waiting for a connection`,
  );
  return errors;
}

/**
 * Prints the RSS samples (a few along the way) and returns the growth: the mean of the last three
 * samples less the mean of the first three, so one garbage collection's swing does not decide it.
 */
export function printMemory(samples: readonly { seconds: number; rssMb: number }[]): number {
  const step = Math.max(1, Math.floor(samples.length / 8));
  const shown = samples.filter((_, at) => at % step === 0 || at === samples.length - 1);
  console.log(
    `  server RSS (MB): ${shown.map((sample) => `${sample.seconds} s ${sample.rssMb.toFixed(0)}`).join(", ")}`,
  );
  const mean = (part: readonly { rssMb: number }[]) =>
    part.reduce((sum, sample) => sum + sample.rssMb, 0) / Math.max(1, part.length);
  const growth = mean(samples.slice(-3)) - mean(samples.slice(0, 3));
  console.log(`  server RSS growth (mean of the last 3 samples less the first 3): ${growth.toFixed(1)} MB`);
  return growth;
}
