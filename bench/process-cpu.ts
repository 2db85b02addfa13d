// CPU time of processes from /proc (Linux): the load-independent cost of a request. Requests a
// second fall when other work shares the machine; the CPU milliseconds the server spends per request
// do not, so this is the figure to drive down.
import { readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100;

/** User plus system CPU time of a process in milliseconds; 0 when it is gone or /proc is absent. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) in parentheses; utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU time of several processes, per process id, to compare before and after a run. */
export function cpuByProcess(pids: readonly number[]): Map<number, number> {
  return new Map(pids.map((pid) => [pid, processCpuMs(pid)]));
}

/** CPU milliseconds spent between two readings (a process seen only after counts from zero). */
export function cpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}
