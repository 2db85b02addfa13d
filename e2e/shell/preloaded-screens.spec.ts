import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { demoLogin, logIn, readDemoLogins, type DemoLogin } from "../support/auth.js";
import { closePage, collectPageErrors, launchBrowser, newPage } from "../support/browser.js";
import { startServer, type RunningServer } from "../support/server.js";

// After login the chunks of every screen the role can open are fetched while the browser is idle,
// so a first visit of any screen waits for its data only, never for a script.
describe("screens preloaded after login", () => {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let logins: DemoLogin[] = [];
  let page: Page | undefined;

  beforeAll(async () => {
    server = await startServer({ demo: true });
    browser = await launchBrowser();
    logins = await readDemoLogins(server);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  afterEach(async ({ task }) => {
    if (page) await closePage(page, task);
  });

  async function visitEveryScreen(email: string, expectedScreens: string[]): Promise<void> {
    if (!browser || !server) throw new Error("setup failed");
    const current = await newPage(browser, server.baseUrl);
    page = current;
    const errors = collectPageErrors(current);
    const scripts: string[] = [];
    current.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
    const login = demoLogin(logins, email);
    await logIn(current, login.email, login.password);
    await current.getByRole("heading", { level: 1 }).first().waitFor();
    await current.waitForFunction(() => document.documentElement.dataset.screensPreloaded === "true");

    const afterPreload = scripts.length;
    const nav = current.getByRole("navigation");
    const labels = (await nav.getByRole("link").allTextContents()).map((label) => label.trim());
    expect(labels).toEqual(expect.arrayContaining(expectedScreens));
    for (const label of labels.filter((candidate) => candidate !== "Signout")) {
      const before = scripts.length;
      await nav.getByRole("link", { name: label, exact: true }).click();
      await current.getByRole("heading", { level: 1 }).first().waitFor();
      expect(scripts.slice(before), `scripts requested on the first visit of ${label}`).toEqual([]);
    }
    // The last screen's requests too, had it made any.
    await current.waitForLoadState("networkidle");
    expect(scripts.slice(afterPreload)).toEqual([]);
    expect(errors).toEqual([]);
  }

  test("an owner's first visit of each screen requests no script", async () => {
    await visitEveryScreen("owner@greenway.example", [
      "Home",
      "Customers",
      "Grouping",
      "Bill Codes",
      "Transactions",
      "Invoices & Statements",
      "Reports",
      "Help",
      "Settings",
    ]);
  });

  test("an admin's first visit of each screen, admin screens included, requests no script", async () => {
    await visitEveryScreen("admin@cyclebill.example", ["Admin Processing", "Clients", "Customers"]);
  });
});
