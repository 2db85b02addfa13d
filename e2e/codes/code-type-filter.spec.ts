import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { createClient, createCode, createCustomer, postEntry, type ApiSession } from "../support/api.js";
import { useAdminBrowser } from "../support/admin-browser.js";

const ADMIN_EMAIL = "code-type-admin@example.test";
const ADMIN_PASSWORD = "code-type-Admin-Password-1";

// Issue 31.6: the Code type filter names the types as codes and reports do, not as the API sends them.
const TYPE_LABELS = [
  "Info",
  "Charge",
  "Payment",
  "Credit adjustment",
  "Debit adjustment",
  "Percent discount",
  "Flat discount",
];

describe("the Code type filter", () => {
  const session = useAdminBrowser(ADMIN_EMAIL, ADMIN_PASSWORD);
  let admin: ApiSession;
  let page: Page;
  beforeEach(() => {
    ({ admin, page } = session.current());
  });

  test("offers the types by their labels and filters the transactions by the type picked", async () => {
    const client = await createClient(admin, "Code Type Filter Client");
    const customer = await createCustomer(admin, client.id, {
      first_name: "Dana",
      last_name: "Reed",
      address1: "4 Oak Ln",
    });
    const entries = [
      { code: 101, description: "Lawn mowing", code_type: "charge", rate: "40.00" },
      { code: 301, description: "Storm credit", code_type: "adjust", rate: "5.00" },
      { code: 401, description: "Returned check fee", code_type: "debit", rate: "25.00" },
    ];
    for (const entry of entries) {
      const code = await createCode(admin, client.id, entry);
      await postEntry(admin, client.id, {
        customer: customer.id,
        code: code.id,
        description: entry.description,
        rate: entry.rate,
        serviceDate: "2026-04-01",
      });
    }

    await page.goto(`/transactions?client_id=${client.id}`);
    await page.getByRole("heading", { level: 1, name: "Search Transactions" }).waitFor();
    const table = page.getByRole("table", { name: "Transactions" });
    // The entries' descriptions the table shows, in alphabetical order ("?" for any other row).
    const descriptions = async () =>
      (await table.locator("tbody tr").allTextContents())
        .map((row) => entries.find((entry) => row.includes(entry.description))?.description ?? "?")
        .sort();
    await expect.poll(descriptions).toEqual(["Lawn mowing", "Returned check fee", "Storm credit"]);

    const filter = page.getByRole("combobox", { name: "Code type" });
    await filter.click();
    const options = page.getByRole("listbox", { name: "Code type" }).getByRole("option");
    await expect.poll(() => options.allTextContents()).toEqual(TYPE_LABELS);

    const filtered = (type: string) =>
      page.waitForResponse((response) => {
        const url = new URL(response.url());
        return url.pathname === "/api/transactions/" && url.searchParams.get("code__code_type") === type;
      });
    let answer = filtered("adjust");
    await page.getByRole("option", { name: "Credit adjustment", exact: true }).click();
    await answer;
    expect(await filter.inputValue()).toBe("Credit adjustment");
    await expect.poll(descriptions).toEqual(["Storm credit"]);

    answer = filtered("debit");
    await filter.click();
    await page.getByRole("option", { name: "Debit adjustment", exact: true }).click();
    await answer;
    expect(await filter.inputValue()).toBe("Debit adjustment");
    await expect.poll(descriptions).toEqual(["Returned check fee"]);
  });
});
