#!/usr/bin/env node
// The one test command: unit and API tests on PGlite, the API tests again on PostgreSQL when
// TEST_DATABASE_URL is set, the OpenAPI document's lint and generated client, then a production
// build and the browser tests in Debian's Chromium.
// Every tier runs even when an earlier one fails, so one failure never hides the others' results;
// the summary lists each tier and the command exits non-zero if any failed.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const results = [];

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const started = Date.now();
  const outcome = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const passed = outcome.status === 0;
  results.push({ label, passed, seconds });
  return passed;
}

function finish() {
  console.log("\n=== summary ===");
  for (const result of results)
    console.log(`${result.passed ? "ok  " : "FAIL"} ${result.label} (${result.seconds} s)`);
  const failed = results.filter((result) => !result.passed).length;
  console.log(`${results.length - failed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

// Debian packages the tests need besides Node: poppler's pdftotext (tests read what PDFs print)
// and, for the browser tier, chromium. Installed when missing if we run as root, as on CI.
function ensureDebianPackage(binary, pkg, label) {
  if (existsSync(binary)) return true;
  if (process.getuid?.() === 0) {
    console.log(`${binary} is missing; installing Debian's ${pkg} package.`);
    run(`install ${pkg}`, "sh", [
      "-c",
      `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkg}`,
    ]);
    if (existsSync(binary)) return true;
  }
  console.error(
    `${label} is missing at ${binary}. Install Debian's package as root (apt-get install ${pkg}), then run the tests again.`,
  );
  return false;
}

function ensureChromium() {
  if (ensureDebianPackage(chromium, "chromium", "Chromium")) return;
  console.error("Or point CHROMIUM_PATH at a Chromium binary.");
  results.push({ label: "browser tests (no Chromium)", passed: false, seconds: "0.0" });
  finish();
}

if (!ensureDebianPackage("/usr/bin/pdftotext", "poppler-utils", "pdftotext")) {
  results.push({ label: "tests (no pdftotext)", passed: false, seconds: "0.0" });
  finish();
}

const { TEST_DATABASE_URL, ...withoutPostgres } = process.env;
console.log("\n=== unit and API tests (PGlite) ===");
{
  const started = Date.now();
  const outcome = spawnSync("npx", ["vitest", "run"], {
    stdio: "inherit",
    env: { ...withoutPostgres, TEST_DB: "pglite" },
  });
  results.push({
    label: "unit and API tests (PGlite)",
    passed: outcome.status === 0,
    seconds: ((Date.now() - started) / 1000).toFixed(1),
  });
}
if (TEST_DATABASE_URL) {
  run("API tests (PostgreSQL)", "npx", ["vitest", "run", "--project", "server"], { TEST_DB: "postgres" });
  // The seeded fault simulation, short: a few sequences with kill -9 of an API and a worker, a production run and dropped gateway answers (seed 17 draws each).
  // Its processes start from the built server (half the start-up of the sources).
  run(
    "soak (PostgreSQL, 3 sequences)",
    "sh",
    ["-c", "npx tsc -b apps/server apps/gateway-sandbox && npm run soak -- --seed 17 --sequences 3 --dist"],
    { SOAK_DATABASE_URL: TEST_DATABASE_URL },
  );
} else {
  console.log("\nTEST_DATABASE_URL is not set: the API tests on PostgreSQL are skipped.");
}
run("OpenAPI lint and client", process.execPath, ["scripts/openapi-check.mjs"]);
const built = run("build", "npm", ["run", "build"]);
if (!built) {
  results.push({ label: "browser tests (not run: the build failed)", passed: false, seconds: "0.0" });
  finish();
}
ensureChromium();
run("browser tests", "npx", ["vitest", "run", "-c", "e2e/vitest.config.ts"], { CHROMIUM_PATH: chromium });
finish();
