import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { monthName } from "../../apps/web/src/lib/months.js";
import type { ApiSession } from "../support/api.js";
import { demoLogin, logIn, uncaught, type DemoLogin } from "../support/auth.js";
import { closePage, collectPageErrors, newPage } from "../support/browser.js";
import { useBrowserWorld } from "../support/browser-world.js";

// Account Reports on the demo data: the Greenway owner downloads last month's register and totals,
// which tie to each other and to the customers' balances at the month's end; an admin with no
// client hears 'No client selected.'; a failed download says which report failed.

describe("Account Reports", () => {
  const world = useBrowserWorld({ demo: true, api: "owner@greenway.example", pagePerTest: false });
  let owner: DemoLogin;
  let admin: DemoLogin;
  let api: ApiSession;
  let clientId: number;
  let today: string;
  let page: Page;
  let pageErrors: string[] = [];

  beforeAll(async () => {
    const { logins } = world.current();
    owner = demoLogin(logins, "owner@greenway.example");
    admin = demoLogin(logins, "admin@cyclebill.example");
    ({ api } = world.current());
    clientId = (await api.request<{ userInfo: { client_id: number } }>("GET", "me/")).userInfo.client_id;
    // The server's business date, whatever the machine's clock says.
    today = (await api.request<{ arBalanceAsOfDate: string }>("GET", `summary-data/client/${clientId}`))
      .arBalanceAsOfDate;
  });

  afterEach(async ({ task }) => {
    expect(uncaught(pageErrors)).toEqual([]);
    await closePage(page, task);
  });

  async function open(login: DemoLogin): Promise<void> {
    const { browser, server } = world.current();
    page = await newPage(browser, server.baseUrl);
    pageErrors = collectPageErrors(page);
    await logIn(page, login.email, login.password);
    await page.goto("/reports");
    await page.getByRole("heading", { level: 1, name: "Account Reports" }).waitFor();
  }

  async function choose(label: string, option: string): Promise<void> {
    await page.getByRole("combobox", { name: label }).click();
    await page.getByRole("option", { name: option, exact: true }).click();
  }

  async function download(button: string) {
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: button, exact: true }).click(),
    ]);
    return { name: file.suggestedFilename(), bytes: await readFile(await file.path()) };
  }

  test("defaults to the current month; the owner's reports of last month tie to each other and to the balances", async () => {
    await open(owner);
    const year = Number(today.slice(0, 4));
    expect(await page.getByRole("combobox", { name: "Year" }).inputValue()).toBe(String(year));
    expect(await page.getByRole("combobox", { name: "Month" }).inputValue()).toBe(
      monthName(Number(today.slice(5, 7))),
    );
    await page.getByRole("combobox", { name: "Year" }).click();
    const years = await page.getByRole("option").allInnerTexts();
    expect(years).toEqual(Array.from({ length: 8 }, (_, index) => String(year - index)));
    await page.keyboard.press("Escape");

    const month = Number(today.slice(5, 7));
    const [lastYear, lastMonth] = month === 1 ? [year - 1, 12] : [year, month - 1];
    const label = `${lastYear}-${String(lastMonth).padStart(2, "0")}`;
    await choose("Year", String(lastYear));
    await choose("Month", monthName(lastMonth));

    const register = await download("Account Register");
    expect(register.name).toBe(`Account Register 1001 ${label}.pdf`);
    expect(register.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const totals = await download("Account Totals");
    expect(totals.name).toBe(`Account Totals 1001 ${label}.pdf`);
    expect(totals.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");

    const registerCsv = await download("Account Register as CSV");
    expect(registerCsv.name).toBe(`Account Register 1001 ${label}.csv`);
    const totalsCsv = await download("Account Totals as CSV");
    const rows = (text: Buffer) =>
      text
        .toString("utf8")
        .trim()
        .split("\r\n")
        .map((line) => line.split(","));
    const registerTotal = (category: string) =>
      rows(registerCsv.bytes).find((row) => row[0] === "total" && row[5] === category)?.[9];
    const totalsLine = (prefix: string) =>
      rows(totalsCsv.bytes).find((row) => row[2]?.startsWith(prefix))?.[4];
    const closing = totalsLine("Closing receivables");
    // Last month has entries in the demo: the report is not empty.
    expect(Number(totalsLine("Month's activity"))).not.toBe(0);
    expect(registerTotal("opening")).toBe(totalsLine("Opening receivables"));
    expect(registerTotal("activity")).toBe(totalsLine("Month's activity"));
    expect(registerTotal("closing")).toBe(closing);
    expect(totalsLine("Customers' balances as of")).toBe(closing);
    expect(totalsLine("Out of balance")).toBe("0.00");
    // The customers' balances as of the month's last day, as the customer list gives them.
    const monthEnd = new Date(Date.UTC(lastYear, lastMonth, 0)).toISOString().slice(0, 10);
    const list = await api.request<{ results: { balance: string }[] }>(
      "GET",
      `customers/?as_of=${monthEnd}&limit=500`,
    );
    const cents = list.results.reduce((total, row) => total + Math.round(Number(row.balance) * 100), 0);
    expect((cents / 100).toFixed(2)).toBe(closing);
  });

  test("an admin with no client chosen hears 'No client selected.'", async () => {
    await open(admin);
    await page.getByRole("button", { name: "Account Register", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "No client selected." }).first().waitFor();
    await page.getByRole("button", { name: "Account Totals", exact: true }).click();
    expect(await page.getByText("No client selected.").count()).toBeGreaterThan(0);
  });

  test("a failed download says which report failed", async () => {
    await open(owner);
    await page.route("**/api/pdf/account-register/**", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"detail":"boom"}' }),
    );
    await page.route("**/api/pdf/account-totals/**", (route) => route.abort("failed"));
    await page.getByRole("button", { name: "Account Register", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "Failed to generate account register." }).waitFor();
    await page.getByRole("button", { name: "Account Totals", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "Failed to generate account totals report." }).waitFor();
    // The abort shows in the console as a failed load: not an error of the app.
    pageErrors.splice(0);
  });
});
