import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { useBrowserWorld } from "../support/browser-world.js";

const ADMIN_EMAIL = "help-admin@example.test";
const ADMIN_PASSWORD = "help-Admin-Password-1";

describe("help page", () => {
  const world = useBrowserWorld({
    admin: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    signIn: ADMIN_EMAIL,
  });
  let page: Page;

  beforeEach(async () => {
    ({ page } = world.current());
    await page.goto("/help");
    await page.getByRole("heading", { level: 1, name: "Help" }).waitFor();
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
