// CPU time of PostgreSQL's processes serving a database over a long run. The server's pool closes
// idle connections and opens new ones, so a reading at the start and one at the end would miss every
// backend that came and went between: this polls the backends every second and keeps each one's last
// reading (what a backend spent after its last poll before it ended is lost: at most a second's).
import pg from "pg";
import { processCpuMs } from "./process-cpu.js";

export type BackendCpu = { stop: () => Promise<number> };

/** Starts counting; stop() answers the CPU milliseconds spent since the start and closes. */
export async function trackBackendCpu(databaseUrl: string): Promise<BackendCpu> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const seen = new Map<number, { first: number; last: number }>();
  const poll = async (starting: boolean) => {
    const { rows } = await client.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    for (const { pid } of rows) {
      const ms = processCpuMs(Number(pid));
      if (ms === 0) continue;
      const known = seen.get(Number(pid));
      // A backend first seen after the start spent all its time during the run.
      if (known) known.last = ms;
      else seen.set(Number(pid), { first: starting ? ms : 0, last: ms });
    }
  };
  await poll(true);
  let polling = Promise.resolve();
  const timer = setInterval(() => {
    polling = polling.then(() => poll(false));
  }, 1_000);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await polling;
      await poll(false);
      await client.end();
      let total = 0;
      for (const { first, last } of seen.values()) total += last - first;
      return total;
    },
  };
}
