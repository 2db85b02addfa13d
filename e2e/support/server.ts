import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DEFAULT_SERVER_ENTRY = path.join(REPO_ROOT, "apps/server/dist/main.js");
// WEB_DIST_DIR (also read by the server) lets parallel work test its own build.
const WEB_INDEX = path.join(process.env.WEB_DIST_DIR ?? path.join(REPO_ROOT, "apps/web/dist"), "index.html");

/**
 * A migrated, empty PGlite data directory (e2e/support/global-setup.ts) that a server without
 * DATABASE_URL starts on a copy of. Only the database is copied: each server writes its own
 * installation id and secrets key, so no two send the gateway the same ORDER_ID.
 */
export const TEMPLATE_ENV = "CYCLEBILL_E2E_TEMPLATE_DATA_DIR";

/** Fixed so tests can mint or inspect tokens; never used outside tests. */
export const TEST_JWT_SECRET = "cyclebill-e2e-jwt-secret-0123456789abcdef0123456789abcdef";

// A demo server seeds months of history before it answers; give a loaded machine room.
const DEFAULT_STARTUP_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;
const MAX_LOG_CHARS = 200_000;

export type StartServerOptions = {
  /** Load the demo data set (BILLING_DEMO=1). Off by default so each test starts from an empty database. */
  demo?: boolean;
  /** Extra environment for the server process; wins over the defaults above. */
  env?: Record<string, string>;
  startupTimeoutMs?: number;
  /** Options for node itself (e.g. --cpu-prof, which NODE_OPTIONS may not carry). */
  nodeArgs?: string[];
};

export type RunningServer = {
  /** e.g. http://127.0.0.1:41234 — no trailing slash. */
  baseUrl: string;
  port: number;
  /** The server's process id (benchmarks read its CPU time). */
  pid: number | undefined;
  dataDir: string;
  /** Everything the server wrote to stdout/stderr so far (tail-trimmed). */
  logs: () => string;
  /** Stops the process and deletes its data directory (unless kept). Safe to call twice. */
  stop: (options?: { keepDataDir?: boolean }) => Promise<void>;
};

/**
 * Starts the built server (`node apps/server/dist/main.js`) on a free port with a fresh DATA_DIR.
 * `CYCLEBILL_SERVER_ENTRY` points at another script with the same contract (handy for harness work).
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const entry = process.env.CYCLEBILL_SERVER_ENTRY ?? DEFAULT_SERVER_ENTRY;
  if (!existsSync(entry)) {
    throw new Error(`Server entry ${entry} does not exist; run \`npm run build\` first.`);
  }
  if (!existsSync(WEB_INDEX)) {
    throw new Error(`${WEB_INDEX} does not exist; run \`npm run build\` first.`);
  }

  const port = await findFreePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), "cyclebill-e2e-"));
  const template = process.env[TEMPLATE_ENV];
  if (template && !options.env?.DATABASE_URL && !process.env.DATABASE_URL)
    await cp(path.join(template, "pglite"), path.join(dataDir, "pglite"), { recursive: true });
  const baseUrl = `http://127.0.0.1:${port}`;

  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), entry], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      BILLING_DEMO: options.demo ? "1" : "0",
      JWT_SECRET: TEST_JWT_SECRET,
      // Browser tests sign admins in with a password alone unless a test sets "required".
      ADMIN_SECOND_FACTOR: "optional",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });

  let output = "";
  let stderr = "";
  const append = (current: string, chunk: Buffer) => (current + chunk.toString("utf8")).slice(-MAX_LOG_CHARS);
  child.stdout.on("data", (chunk: Buffer) => {
    output = append(output, chunk);
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output = append(output, chunk);
    stderr = append(stderr, chunk);
  });

  const exited = new Promise<string>((resolve) => {
    child.once("exit", (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`));
    // A spawn failure emits "error" and possibly no "exit".
    child.once("error", (error) => resolve(`spawn error: ${error.message}`));
  });
  let exitStatus: string | undefined;
  void exited.then((status) => {
    exitStatus = status;
  });
  // If the test process dies without calling stop(), don't leave a server holding the port.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);

  let stopped = false;
  const stop = async (stopOptions: { keepDataDir?: boolean } = {}) => {
    if (stopped) return;
    stopped = true;
    process.removeListener("exit", killOnExit);
    if (exitStatus === undefined) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    if (!stopOptions.keepDataDir) await rm(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(baseUrl, options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS, () => exitStatus);
  } catch (error) {
    await stop();
    // The server's output is only interesting when startup fails.
    console.error(`--- cyclebill server output (${entry}) ---\n${output}\n--- end of server output ---`);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${reason}\n--- server stderr ---\n${stderr || "(empty)"}`, { cause: error });
  }

  return { baseUrl, port, pid: child.pid, dataDir, logs: () => output, stop };
}

async function waitForHealth(
  baseUrl: string,
  timeoutMs: number,
  exitStatus: () => string | undefined,
): Promise<void> {
  const url = `${baseUrl}/api/health/`;
  const deadline = Date.now() + timeoutMs;
  let lastProblem = "no response yet";
  for (;;) {
    const status = exitStatus();
    if (status !== undefined) throw new Error(`Server exited during startup (${status}).`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
      lastProblem = `GET ${url} answered ${response.status}`;
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) {
      throw new Error(`Server did not become healthy within ${timeoutMs} ms (${lastProblem}).`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Asks the OS for an unused port by listening on port 0, then releases it for the server. */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once("error", reject);
    probe.listen({ port: 0 }, () => {
      const address = probe.address();
      if (address === null || typeof address === "string") {
        probe.close();
        reject(new Error("Could not determine a free port"));
        return;
      }
      probe.close(() => resolve(address.port));
    });
  });
}
