import type { Page } from "playwright-core";
import { afterEach, describe, expect, test } from "vitest";
import { demoLogin, logIn } from "../support/auth.js";
import { closePage, collectPageErrors, newPage } from "../support/browser.js";
import { useBrowserWorld } from "../support/browser-world.js";

// After login the chunks of every screen the role can open are fetched while the browser is idle,
// so a first visit of any screen waits for its data only, never for a script.
describe("screens preloaded after login", () => {
  const world = useBrowserWorld({ demo: true, pagePerTest: false });
  let page: Page | undefined;

  afterEach(async ({ task }) => {
    if (page) await closePage(page, task);
  });

  async function visitEveryScreen(email: string, expectedScreens: string[]): Promise<void> {
    const { browser, server, logins } = world.current();
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
