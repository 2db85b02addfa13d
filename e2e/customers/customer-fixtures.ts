import type { Locator, Page } from "playwright-core";
import type { ApiSession } from "../support/api.js";
import { useBrowserWorld, type BrowserWorld } from "../support/browser-world.js";

// Shared set-up of the customer browser tests: the demo data (customers with balances, some marked
// for deletion, some archived) and its Greenway owner, who works on one client without picking it.

export const OWNER_EMAIL = "owner@greenway.example";

/**
 * Registers the file's hooks: the demo server and a browser; each test gets a page signed in as the
 * owner, whose API session is `api`.
 */
export function useCustomerWorld(options: { startupTimeoutMs?: number } = {}): {
  current: () => BrowserWorld;
} {
  return useBrowserWorld({ demo: true, api: OWNER_EMAIL, signIn: OWNER_EMAIL, ...options });
}

export type ApiCustomer = {
  id: number;
  customer_no: number;
  customer_name: string;
  balance: string;
  delete_flag: string | null;
  deleted: boolean;
};

export async function findCustomer(api: ApiSession, query: string): Promise<ApiCustomer> {
  const page = await api.request<{ results: ApiCustomer[] }>(
    "GET",
    `customers/?query=${encodeURIComponent(query)}&limit=5`,
  );
  const found = page.results[0];
  if (!found) throw new Error(`No customer matches ${query}`);
  return found;
}

/** Manage Customers, waiting until the first rows are in. */
export async function openCustomerList(page: Page): Promise<Locator> {
  await page.goto("/customers/manage");
  await page.getByRole("heading", { level: 1, name: "Manage Customers" }).waitFor();
  const table = page.getByRole("table", { name: "Customers" });
  await table.getByRole("row").nth(1).getByRole("checkbox").waitFor();
  return table;
}

/**
 * Applies the list's text filter at once (Enter) instead of waiting for the 2 s pause, and waits
 * for the filtered page to arrive.
 */
export async function filterList(page: Page, text: string): Promise<void> {
  const box = page.getByRole("textbox", { name: "Filter customers" });
  await box.fill(text);
  const filtered = page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname === "/api/customers/" && url.searchParams.get("query") === text;
  });
  await box.press("Enter");
  await filtered;
}

/** Picks a code in a Code picker within `scope` by typing its number. */
export async function pickCode(page: Page, scope: Locator, code: string): Promise<void> {
  await scope.getByLabel("Code").click();
  await scope.getByLabel("Code").pressSequentially(code);
  await page.getByRole("option", { name: new RegExp(`^${code} · `) }).click();
}

export function customerRow(page: Page, name: string): Locator {
  return page
    .getByRole("table", { name: "Customers" })
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name, exact: true }) });
}
