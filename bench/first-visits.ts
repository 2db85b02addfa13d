// The first visit of each screen after login, in Chromium against the real server with the demo data:
// the script requests it makes (none once the screens are preloaded) and the time from the click on its
// navigation link to its first data row (median of several fresh sessions).
import type { Browser, Page } from "playwright-core";
import type { RunningServer } from "../e2e/support/server.js";

/** Where each screen's first row or figure shows (its form where it shows no data unasked). */
const FIRST_DATA: Record<string, string> = {
  Home: 'section[aria-label="Customers"]',
  "Admin Processing": "main table tbody tr",
  Clients: "main table tbody tr",
  Customers: "main table tbody tr",
  Grouping: 'table[aria-label="Group list"] tbody tr',
  "Bill Codes": "main table tbody tr",
  Transactions: "main table tbody tr",
  "Invoices & Statements": "main table tbody tr, main form",
  Reports: "main form, main button",
  Help: "main h2",
  Settings: "main input",
};

export type FirstVisit = { screen: string; scripts: number; ms: number };

async function oneSession(browser: Browser, server: RunningServer, token: string): Promise<FirstVisit[]> {
  const context = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: { width: 1440, height: 900 },
  });
  await context.addInitScript((value) => localStorage.setItem("cyclebill.token", value), token);
  const page: Page = await context.newPage();
  let scripts = 0;
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts += 1;
  });
  await page.goto("/home");
  await page.waitForFunction(() => document.documentElement.dataset.screensPreloaded === "true", undefined, {
    timeout: 30_000,
  });
  const nav = page.getByRole("navigation");
  const labels = (await nav.getByRole("link").allTextContents()).map((label) => label.trim());
  const visits: FirstVisit[] = [];
  // Home is where the session starts; visit it last, from another screen.
  const order = [...labels.filter((label) => label !== "Home" && label !== "Signout"), "Home"];
  for (const screen of order) {
    const selector = FIRST_DATA[screen] ?? "main h1";
    const before = scripts;
    // What the previous screen shows does not count: only elements drawn after the click do.
    await page.evaluate(() => {
      for (const element of Array.from(document.querySelectorAll("main *")))
        element.setAttribute("data-before-click", "");
    });
    const clicked = await page.evaluate(() => performance.now());
    await nav.getByRole("link", { name: screen, exact: true }).click();
    await page.waitForURL((url) => url.pathname !== "/", { timeout: 30_000 });
    const shown = await page
      .waitForFunction(
        (css) => {
          const fresh = Array.from(document.querySelectorAll(css)).find(
            (element) =>
              !element.hasAttribute("data-before-click") && element.getBoundingClientRect().height > 0,
          );
          return fresh !== undefined && performance.now();
        },
        selector,
        { polling: "raf", timeout: 15_000 },
      )
      .then(async (handle) => (await handle.jsonValue()) as number)
      .catch(() => Number.NaN); // shown as "no data": the screen never showed its first row
    visits.push({ screen, scripts: scripts - before, ms: shown - clicked });
    if (page.isClosed()) throw new Error(`The page closed on the first visit of ${screen}`);
  }
  await context.close();
  return visits;
}

/** Runs `sessions` fresh sessions and prints, per screen, the script requests and the median time. */
export async function printFirstVisits(
  browser: Browser,
  server: RunningServer,
  token: string,
  who: string,
  sessions = 5,
): Promise<void> {
  const runs: FirstVisit[][] = [];
  for (let run = 0; run < sessions; run += 1) {
    // A session whose page dies (Chromium under memory pressure) is reported and left out.
    await oneSession(browser, server, token).then(
      (visits) => runs.push(visits),
      (error: unknown) =>
        console.log(`  (a session was left out: ${error instanceof Error ? error.message : String(error)})`),
    );
  }
  console.log(`First visit of each screen after login (${who}), median of ${sessions} sessions:`);
  console.log(`  ${"screen".padEnd(24)} ${"scripts".padStart(8)} ${"click to data".padStart(14)}`);
  for (const visit of runs[0] ?? []) {
    const times = runs.map((run) => run.find((other) => other.screen === visit.screen)?.ms ?? Number.NaN);
    const scripts = Math.max(...runs.map((run) => run.find((o) => o.screen === visit.screen)?.scripts ?? 0));
    const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? Number.NaN;
    console.log(
      `  ${visit.screen.padEnd(24)} ${String(scripts).padStart(8)} ${Number.isNaN(median) ? "no data" : `${median.toFixed(0)} ms`.padStart(14)}`,
    );
  }
}
