import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import { startServerProcess, type ServerProcess } from "../../apps/server/src/test-support/server-process.js";
import { startWorkerProcess, type WorkerProcess } from "../../apps/server/src/test-support/worker-process.js";
import { startDistApi, startDistWorker } from "./soak-spawn.js";

// The processes a soak runs against: the gateway sandbox in this process (so its book can be read
// after each sequence) with seeded dropped answers, two API processes (WORKERS=0) and two worker
// processes on one PostgreSQL database, each of which can be killed with SIGKILL and started again.

/** The secrets every process shares (a worker decrypts the gateway keys the soak stored). */
export const SOAK_SECRET = "multi-process-test";
/** How long a killed worker's job waits before pg-boss retries it on the other worker. */
const EXPIRE_SECONDS = 8;

type Slot<T> = { current: T | null; starting: Promise<T> | null };

export type Cluster = {
  sandbox: Sandbox;
  /** A live API process's base URL: `preferred` if it is up, else the other. */
  apiUrl: (preferred: number) => Promise<string>;
  /** kill -9 an API process (or a worker) and start it again in the background. */
  kill: (target: "api" | "worker", which: number) => boolean;
  /** Waits until every killed worker is back (a killed API comes back meanwhile; the other serves). */
  settled: () => Promise<void>;
  /** Milliseconds each start took (API processes until /api/health/ answered). */
  startTimes: number[];
  close: () => Promise<void>;
};

export async function startCluster(databaseUrl: string, dropRate: number, dist: boolean): Promise<Cluster> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "cyclebill-soak-"));
  const sandbox = await startSandbox({ demoAccount: false, faults: { dropRate, seed: 1 } });
  const env = {
    BLUEPAY_URL: sandbox.bp20postUrl,
    BLUEPAY_MODE: "TEST",
    // A dropped answer is seen at once; the time-out only bounds a call that never ends.
    BLUEPAY_TIMEOUT_SECONDS: "1",
    JWT_SECRET: SOAK_SECRET,
    ADMIN_SECOND_FACTOR: "optional",
    BILLING_SECRETS_KEY: SOAK_SECRET,
    JOB_MAINTENANCE_SECONDS: "1",
    JOB_POLL_SECONDS: "0.5",
  };
  const startTimes: number[] = [];
  const timed = async <T>(start: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    const result = await start();
    startTimes.push(Date.now() - started);
    return result;
  };
  const distEnv = { ...env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir };
  const startApi = () =>
    timed(() => (dist ? startDistApi(distEnv) : startServerProcess(databaseUrl, { dataDir, env })));
  // A worker is ready once it polls; waiting for its first log line would need one, so give it a
  // moment: the soak only needs it for jobs queued later, which the other worker covers meanwhile.
  const startWorker = () =>
    timed(async () =>
      dist
        ? startDistWorker({ ...distEnv, JOB_EXPIRE_SECONDS: String(EXPIRE_SECONDS) })
        : startWorkerProcess(databaseUrl, { dataDir, expireSeconds: EXPIRE_SECONDS, env }),
    );

  // The first API migrates; the others start after it so they do not race the migration lock.
  const first = await startApi();
  const apis: Slot<ServerProcess>[] = [
    { current: first, starting: null },
    { current: await startApi(), starting: null },
  ];
  const workers: Slot<WorkerProcess>[] = [
    { current: await startWorker(), starting: null },
    { current: await startWorker(), starting: null },
  ];
  let closing = false;

  function restart<T extends WorkerProcess>(slot: Slot<T>, start: () => Promise<T>): boolean {
    const process = slot.current;
    if (!process || process.child.exitCode !== null) return false;
    slot.current = null;
    process.child.kill("SIGKILL");
    slot.starting = process.exited.then(async () => {
      const started = await start();
      if (closing) started.child.kill("SIGTERM");
      slot.current = started;
      slot.starting = null;
      return started;
    });
    return true;
  }

  return {
    sandbox,
    startTimes,
    apiUrl: async (preferred) => {
      const order = [apis[preferred % 2], apis[(preferred + 1) % 2]];
      for (const slot of order) if (slot?.current) return slot.current.baseUrl;
      const back = await Promise.race(order.map((slot) => slot?.starting).filter((p) => p !== null));
      if (!back) throw new Error("no API process is running or starting");
      return back.baseUrl;
    },
    kill: (target, which) =>
      target === "api"
        ? restart(apis[which % 2] as Slot<ServerProcess>, startApi)
        : restart(workers[which % 2] as Slot<WorkerProcess>, startWorker),
    settled: async () => {
      await Promise.all(workers.map((slot) => slot.starting));
    },
    close: async () => {
      closing = true;
      await Promise.all([...apis, ...workers].map((slot) => slot.starting));
      const all = [...apis, ...workers].map((slot) => slot.current).filter((p) => p !== null);
      for (const process of all) if (process.child.exitCode === null) process.child.kill("SIGTERM");
      await Promise.all(all.map((process) => process.exited));
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
