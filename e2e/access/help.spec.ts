import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { logIn } from "../support/auth.js";
import { closePage, launchBrowser, newPage } from "../support/browser.js";
import { startServer, type RunningServer } from "../support/server.js";

const ADMIN_EMAIL = "help-admin@example.test";
const ADMIN_PASSWORD = "help-Admin-Password-1";

describe("help page", () => {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({
      env: { BILLING_ADMIN_EMAIL: ADMIN_EMAIL, BILLING_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  beforeEach(async () => {
    if (!browser || !server) throw new Error("setup failed");
    page = await newPage(browser, server.baseUrl);
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.goto("/help");
    await page.getByRole("heading", { level: 1, name: "Help" }).waitFor();
  });

  afterEach(async ({ task }) => {
    await closePage(page, task);
  });

  const questions = () =>
    page.getByRole("region", { name: "Help topics" }).getByRole("heading", { level: 2 }).allTextContents();
  const filter = (value: string) => page.getByLabel("Filter help topics").fill(value);

  test("lists the topics the spec names", async () => {
    const all = await questions();
    for (const topic of [
      /create an invoice\?/,
      /add a customer/,
      /bill codes/,
      /charges, payments and adjustments/,
      /archive a customer/,
      /several selected transactions/,
      /CSV/,
      /one customer selected/,
    ]) {
      expect(all.some((question) => topic.test(question))).toBe(true);
    }
    // The archive rule, written out.
    await page.getByText(/becomes pending archived/).waitFor();
    await page.getByText(/transaction history is lost/).waitFor();
  });

  test("every word must match the question or the answer, in any case", async () => {
    await filter("ARCHIVED zero");
    expect(await questions()).toEqual(["How do I archive a customer, and what happens to their balance?"]);

    // "csv" appears in two answers; "zip" narrows it to the customer download.
    await filter("csv");
    expect((await questions()).length).toBeGreaterThan(1);
    await filter("csv   Customers.zip");
    expect(await questions()).toEqual(["How do I download my customer list as a CSV file?"]);

    // A word found in one entry and another word found only in a different entry: no match.
    await filter("unarchive Ctrl+Enter");
    expect(await questions()).toEqual([]);
    await page.getByText(/No help topics match/).waitFor();

    await filter("");
    expect((await questions()).length).toBeGreaterThan(8);
  });
});
