// The web app's first load: compressed size of what the login screen loads and of each screen's chunks
// (from apps/web/dist), then, in Chromium against the real server with the demo data, what a cold load
// of the login screen transfers, how long a cold load of Home takes until the greeting and cards show,
// and, for an owner and an admin, each screen's first visit after login (script requests, click to data).
// Builds nothing: run `npm run build` first. Usage: npm run bench:first-load [-- --sizes-only]
// WEB_DIST_DIR and CYCLEBILL_SERVER_ENTRY measure another build (as in the browser tests).
import path from "node:path";
import type { Browser } from "playwright-core";
import { apiLogIn } from "../e2e/support/api.js";
import { demoLogin, readDemoLogins } from "../e2e/support/auth.js";
import { launchBrowser } from "../e2e/support/browser.js";
import { REPO_ROOT, startServer, type RunningServer } from "../e2e/support/server.js";
import { kB, measureBuild } from "./first-load-sizes.js";
import { printFirstVisits } from "./first-visits.js";

const TARGET_FIRST_LOAD_BYTES = 150_000;
const TARGET_HOME_MS = 1_000;
const HOME_RUNS = 5;
const OWNER_EMAIL = "owner@greenway.example";
const ADMIN_EMAIL = "admin@cyclebill.example";

const distDir = process.env.WEB_DIST_DIR ?? path.join(REPO_ROOT, "apps/web/dist");

function printSizes(): string[] {
  const { firstLoad, routes } = measureBuild(distDir);
  console.log(`First load of the login screen (${firstLoad.files.length} files, from ${distDir}):`);
  console.log(
    `  JS  ${kB(firstLoad.js.br)} brotli, ${kB(firstLoad.js.gzip)} gzip, ${kB(firstLoad.js.raw)} raw` +
      `  (target ≤ ${kB(TARGET_FIRST_LOAD_BYTES)}: ${firstLoad.js.br <= TARGET_FIRST_LOAD_BYTES ? "met" : "MISSED"})`,
  );
  console.log(
    `  CSS ${kB(firstLoad.css.br)} brotli, ${kB(firstLoad.css.gzip)} gzip, ${kB(firstLoad.css.raw)} raw`,
  );
  console.log("Each lazily loaded chunk, with the chunks it imports that the first load has not (JS):");
  console.log(
    `  ${"screen".padEnd(28)} ${"brotli".padStart(9)} ${"gzip".padStart(9)} ${"raw".padStart(9)}  files`,
  );
  for (const route of routes) {
    console.log(
      `  ${route.screen.padEnd(28)} ${kB(route.js.br).padStart(9)} ${kB(route.js.gzip).padStart(9)} ` +
        `${kB(route.js.raw).padStart(9)}  ${route.files.length}`,
    );
  }
  return firstLoad.files;
}

/** What a fresh browser context (empty cache) transfers for the login screen, as sent over the wire. */
async function coldLogin(browser: Browser, server: RunningServer, firstLoadFiles: string[]): Promise<void> {
  const context = await browser.newContext({ baseURL: server.baseUrl });
  const page = await context.newPage();
  const scripts: Promise<{ url: string; bytes: number; encoding: string }>[] = [];
  page.on("requestfinished", (request) => {
    if (request.resourceType() !== "script") return;
    scripts.push(
      (async () => {
        const response = await request.response();
        const sizes = await request.sizes();
        return {
          url: request.url(),
          bytes: sizes.responseBodySize,
          encoding: (await response?.allHeaders())?.["content-encoding"] ?? "none",
        };
      })(),
    );
  });
  await page.goto("/");
  await page.getByRole("button", { name: "Log in" }).waitFor();
  await page.waitForLoadState("networkidle");
  const all = await Promise.all(scripts);
  // The deferred chunks (login validation, toasts) load once the form shows; count them apart.
  const isFirst = (url: string) => firstLoadFiles.includes(new URL(url).pathname.slice(1));
  const first = all.filter((entry) => isFirst(entry.url));
  const deferred = all.filter((entry) => !isFirst(entry.url));
  const sum = (list: { bytes: number }[]) => list.reduce((total, entry) => total + entry.bytes, 0);
  const encodings = [...new Set(first.map((entry) => entry.encoding))].join(", ");
  console.log(
    `Cold load of the login screen in Chromium: ${kB(sum(first))} of JS on the wire in ` +
      `${first.length} files (content-encoding: ${encodings}), then ${kB(sum(deferred))} in ${deferred.length} deferred`,
  );
  await context.close();
}

type HomeTiming = { greeting: number; cards: number; summaryApi: number };

/** Milliseconds from navigation start until Home shows the greeting, and the summary cards, cold cache. */
async function coldHome(browser: Browser, server: RunningServer, token: string): Promise<HomeTiming> {
  const context = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: { width: 1440, height: 900 },
  });
  await context.addInitScript((value) => localStorage.setItem("cyclebill.token", value), token);
  const page = await context.newPage();
  await page.goto("/home", { waitUntil: "commit" });
  // Each check runs in the page and answers the page's clock once it holds (false until then).
  const shown = async (check: () => number | false) =>
    (await (
      await page.waitForFunction(check, undefined, { polling: "raf", timeout: 30_000 })
    ).jsonValue()) as number;
  const greeting = await shown(
    () =>
      Array.from(document.querySelectorAll("h1")).some((h) => h.textContent?.startsWith("Welcome")) &&
      performance.now(),
  );
  const cards = await shown(
    () =>
      ["Customers", "Transactions", "Your Balance"].every((label) =>
        document.querySelector(`section[aria-label="${label}"]`),
      ) && performance.now(),
  );
  // How much of that the summary request took on the server's side (it comes last).
  const summaryApi = await page.evaluate(() => {
    const entry = performance
      .getEntriesByType("resource")
      .find((candidate) => candidate.name.includes("/api/summary-data/")) as
      PerformanceResourceTiming | undefined;
    return entry ? entry.responseEnd - entry.requestStart : Number.NaN;
  });
  await context.close();
  return { greeting, cards, summaryApi };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  let firstLoadFiles: string[] = [];
  try {
    firstLoadFiles = printSizes();
  } catch (error) {
    // A build from before the manifest (e.g. measuring an old release) still gets the browser figures.
    console.log(`No sizes: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (process.argv.includes("--sizes-only")) return;
  const server = await startServer({ demo: true });
  const browser = await launchBrowser();
  try {
    await coldLogin(browser, server, firstLoadFiles);
    const logins = await readDemoLogins(server);
    const owner = demoLogin(logins, OWNER_EMAIL);
    const { token } = await apiLogIn(server, owner.email, owner.password);
    await coldHome(browser, server, token); // the server's first answers warm its own caches
    const runs: HomeTiming[] = [];
    for (let run = 0; run < HOME_RUNS; run += 1) runs.push(await coldHome(browser, server, token));
    const cards = median(runs.map((run) => run.cards));
    console.log(
      `Home on a cold cache, median of ${HOME_RUNS} runs: greeting ${median(runs.map((run) => run.greeting)).toFixed(0)} ms, ` +
        `greeting and cards ${cards.toFixed(0)} ms (target ≤ ${TARGET_HOME_MS} ms: ${cards <= TARGET_HOME_MS ? "met" : "MISSED"}), ` +
        `of which the summary request ${median(runs.map((run) => run.summaryApi)).toFixed(0)} ms`,
    );
    await printFirstVisits(browser, server, token, "owner");
    const admin = demoLogin(logins, ADMIN_EMAIL);
    await printFirstVisits(
      browser,
      server,
      (await apiLogIn(server, admin.email, admin.password)).token,
      "admin",
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
