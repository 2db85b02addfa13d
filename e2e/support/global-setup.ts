import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { TEMPLATE_ENV, startServer } from "./server.js";

// Every browser test file starts its own server on a fresh PGlite database, and migrating one took
// 15 to 50 s of each start on a loaded 2-core machine. One server migrates a database here, once;
// each file's server then starts on a copy of it (see startServer).

let template: string | undefined;

export async function setup(): Promise<void> {
  const server = await startServer({ startupTimeoutMs: 240_000 });
  await server.stop({ keepDataDir: true });
  template = await mkdtemp(path.join(tmpdir(), "cyclebill-e2e-template-"));
  await cp(path.join(server.dataDir, "pglite"), path.join(template, "pglite"), { recursive: true });
  await rm(server.dataDir, { recursive: true, force: true });
  process.env[TEMPLATE_ENV] = template;
}

export async function teardown(): Promise<void> {
  if (template) await rm(template, { recursive: true, force: true });
}
