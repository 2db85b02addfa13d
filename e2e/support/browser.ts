import { mkdir } from "node:fs/promises";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import type { TestContext } from "vitest";
import { REPO_ROOT } from "./server.js";

export const SCREENSHOT_DIR = path.join(REPO_ROOT, "e2e/test-results");

// playwright-core ships no browser; we drive the system Chromium. The extra flags keep it from
// phoning home or updating components, which is slow (and flaky) in sandboxes without network.
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
  "--disable-quic",
];

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
    env: withoutFakedClock(process.env),
  });
  if (!process.env.FAKETIME) return browser;
  // Under libfaketime (a run with the clock moved, e.g. a year ahead) the test processes and the
  // servers they start run on the moved clock, but Chromium preloaded with it spins and times out:
  // it runs on the real clock, and each of its contexts gets this process's (moved) clock instead.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.clock.install({ time: Date.now() });
    return context;
  };
  return browser;
}

function withoutFakedClock(env: NodeJS.ProcessEnv): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || key.startsWith("FAKETIME")) continue;
    if (key === "LD_PRELOAD" && value.includes("faketime")) continue;
    kept[key] = value;
  }
  return kept;
}

/** A page in its own context (fresh cookies and localStorage), with relative URLs resolved against baseUrl. */
export async function newPage(browser: Browser, baseUrl: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } });
  return context.newPage();
}

/** Collects uncaught page errors and console errors, so a test can assert the app ran cleanly. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/**
 * Closes the page's context; if the test failed, first saves a full-page screenshot to
 * e2e/test-results/. Call from afterEach, where vitest has already recorded the result:
 * `afterEach(({ task }) => closePage(page, task))`.
 */
export async function closePage(page: Page, task?: TestContext["task"]): Promise<void> {
  if (task?.result?.state === "fail" && !page.isClosed()) {
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, `${slug(task.fullName)}.png`);
    try {
      await page.screenshot({ path: file, fullPage: true });
      console.error(`Screenshot of failed test saved to ${file}`);
    } catch (error) {
      console.error(`Could not save a screenshot for "${task.fullName}":`, error);
    }
  }
  await page.context().close();
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 120);
}
