import { readFile } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiLogIn, type ApiSession } from "../support/api.js";
import { appToday } from "../support/app-today.js";
import { demoLogin, logIn, readDemoLogins, uncaught } from "../support/auth.js";
import { closePage, collectPageErrors, launchBrowser, newPage } from "../support/browser.js";
import { startServer, type RunningServer } from "../support/server.js";

// The "done when": a client staff user enters a day's charges and payments for a group,
// fixes a mistake, gathers entries into an invoice, closes it and downloads its PDF, and every
// balance stays equal to its ledger.

const STAFF_EMAIL = "staff@greenway.example";

type Entry = {
  id: number;
  customer: number;
  customer_name: string;
  amount: string;
  transaction_type: string;
  code_type: string;
};
type Customer = { id: number; balance: string };

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("a staff user's billing day", () => {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let api: ApiSession;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({ demo: true });
    const staff = demoLogin(await readDemoLogins(server), STAFF_EMAIL);
    api = await apiLogIn(server, staff.email, staff.password);
    browser = await launchBrowser();
    page = await newPage(browser, server.baseUrl);
    await logIn(page, staff.email, staff.password);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const todaysRouteEntries = async () =>
    (
      await api.request<{ results: Entry[] }>(
        "GET",
        `transactions/?created__gte=${await appToday(server?.baseUrl ?? "")}&limit=1000&ordering=id`,
      )
    ).results.filter((entry) => entry.transaction_type === "route");

  async function postForGroup(code: RegExp, codeText: string, amount: string) {
    await page.getByRole("tab", { name: "Add Group Transactions" }).click();
    await page.getByRole("heading", { level: 1, name: "Add Transactions by Group" }).waitFor();
    await page.getByRole("combobox", { name: "Group" }).click();
    await page.getByRole("option", { name: "North route" }).click();
    const input = page.getByRole("textbox", { name: "Code" });
    await input.click();
    await input.fill(codeText);
    await page.getByRole("option", { name: code }).click();
    await page.getByRole("textbox", { name: "Default amount" }).fill(amount);
    await page.getByRole("button", { name: "Add Transactions" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: /route transactions were created/ })
      .waitFor();
  }

  test("group charges and payments, a fix, an invoice closed with its PDF, balances equal to ledgers", async ({
    task,
  }) => {
    const errors = collectPageErrors(page);
    try {
      await billingDay();
      expect(uncaught(errors)).toEqual([]);
    } catch (error) {
      await page.screenshot({ path: "/tmp/staff-day-failure.png", fullPage: true });
      throw error;
    } finally {
      await closePage(page, task);
    }
  });

  async function billingDay() {
    await page.goto("/transactions");
    await page.getByRole("heading", { level: 1, name: "Search Transactions" }).waitFor();

    await postForGroup(/^100 · /, "100", "30.00");
    await postForGroup(/^200 · /, "200", "30.00");
    const posted = await todaysRouteEntries();
    const charges = posted.filter((entry) => entry.code_type === "charge");
    const payments = posted.filter((entry) => entry.code_type === "payment");
    expect(charges.length).toBeGreaterThan(1);
    // Customers marked for deletion take the payment but not the charge.
    expect(payments.length).toBeGreaterThanOrEqual(charges.length);

    // A mistake: the first customer's charge should have been 45.00; fixed in place on the search page.
    const first = charges[0]!;
    await page.getByRole("tab", { name: "Search Transactions" }).click();
    const filter = page.getByRole("textbox", { name: "Filter by customer" });
    await filter.click();
    await filter.fill(first.customer_name.slice(0, 12));
    await page
      .getByRole("option", { name: new RegExp(escapeRegExp(first.customer_name)) })
      .first()
      .click();
    const table = page.getByRole("table", { name: "Transactions" });
    // The filter applies after its debounce: wait until only this customer's rows are listed.
    await expect
      .poll(async () =>
        (await table.locator("tbody tr td:first-child").allTextContents()).every((text) =>
          text.includes(first.customer_name),
        ),
      )
      .toBe(true);
    // Today's rows come first (newest service date); the code cell tells charge from payment.
    const todays = (code: string, amount: string) =>
      table
        .getByRole("row")
        .filter({ has: page.getByRole("cell", { name: code, exact: true }) })
        .filter({ hasText: amount })
        .first();
    await todays("100", "$30.00").getByRole("button", { name: "Edit" }).click();
    await table.getByRole("textbox", { name: "Rate" }).fill("45");
    await table.getByRole("textbox", { name: "Rate" }).press("Control+Enter");
    await table.getByRole("cell", { name: "$45.00" }).first().waitFor();

    // Gather the day's charge and payment of that customer into an invoice.
    await page.getByRole("button", { name: "Mass Edit" }).click();
    await todays("100", "$45.00").getByRole("checkbox").check();
    await todays("200", "$30.00").getByRole("checkbox").check();
    await page.getByRole("heading", { name: "Change a field for 2 selected transactions" }).waitFor();
    await page.getByRole("button", { name: "Make Invoice from Selected" }).click();
    await page.getByRole("heading", { level: 1, name: /^Invoice \d+$/ }).waitFor();
    await page.getByLabel("Invoice total").getByText("Total $15.00").waitFor();
    await page.getByRole("button", { name: "Close Invoice", exact: true }).click();
    await page.getByLabel("Invoice status").getByText("Closed").waitFor();
    const [pdf] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Get PDF" }).click(),
    ]);
    expect(pdf.suggestedFilename()).toMatch(/^Invoice \d+\.pdf$/);
    expect((await readFile(await pdf.path())).subarray(0, 5).toString("latin1")).toBe("%PDF-");

    // Every customer the day touched: balance equal to the net of its ledger.
    for (const customerId of new Set(posted.map((entry) => entry.customer))) {
      const customer = await api.request<Customer>("GET", `customers/${customerId}/`);
      const ledger = await api.request<{ netAmount: string }>(
        "GET",
        `transactions/get_total_amount/?customer__id=${customerId}`,
      );
      expect(customer.balance, `customer ${customerId}`).toBe(ledger.netAmount);
    }
  }
});
