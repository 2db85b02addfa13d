import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

// A real worker process (src/worker.ts, as `npm run worker` runs it) for the kill -9 tests: they
// kill one with SIGKILL mid-job and check a second one finishes the work without doing it twice.

const serverDir = path.resolve(import.meta.dirname, "../..");

export type WorkerProcess = {
  child: ChildProcess;
  output: string[];
  exited: Promise<{ code: number | null; signal: string | null }>;
};

/**
 * Starts `src/worker.ts` on the database with one worker and short poll times, and `expireSeconds`
 * as every queue's expiry (left out: each job's own, as in production).
 */
export function startWorkerProcess(
  databaseUrl: string,
  options: {
    dataDir: string;
    expireSeconds?: number;
    chunkSize?: number;
    smtpUrl?: string;
    /** More environment, e.g. BLUEPAY_URL of a gateway sandbox the test runs. */
    env?: Record<string, string>;
  },
): WorkerProcess {
  return spawnServerScript("src/worker.ts", {
    DATABASE_URL: databaseUrl,
    DATA_DIR: options.dataDir,
    JWT_SECRET: "worker-kill-test",
    ADMIN_SECOND_FACTOR: "optional",
    BILLING_SECRETS_KEY: "worker-kill-test",
    WORKERS: "1",
    JOB_MAINTENANCE_SECONDS: "1",
    ...(options.expireSeconds === undefined ? {} : { JOB_EXPIRE_SECONDS: String(options.expireSeconds) }),
    JOB_POLL_SECONDS: "0.5",
    ...(options.chunkSize === undefined ? {} : { JOB_CHUNK_SIZE: String(options.chunkSize) }),
    ...(options.smtpUrl === undefined ? {} : { SMTP_URL: options.smtpUrl }),
    LOG_LEVEL: "warn",
    ...options.env,
  });
}

/** Runs one of the server's scripts (src/main.ts, src/worker.ts) from source with `env` added, keeping its output. */
export function spawnServerScript(script: string, env: Record<string, string>): WorkerProcess {
  const child = spawn("node", ["--conditions=source", "--import", "tsx", script], {
    cwd: serverDir,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  child.stdout?.on("data", (data: Buffer) => output.push(data.toString()));
  child.stderr?.on("data", (data: Buffer) => output.push(data.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, output, exited };
}

/** Polls check until it holds; after 90 s fails with the worker's output. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  worker?: WorkerProcess,
): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}\n${worker?.output.join("") ?? ""}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
