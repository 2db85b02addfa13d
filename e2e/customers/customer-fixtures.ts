import type { Browser, Locator, Page } from "playwright-core";
import { apiLogIn, type ApiSession } from "../support/api.js";
import { demoLogin, logIn, readDemoLogins, type DemoLogin } from "../support/auth.js";
import { launchBrowser, newPage } from "../support/browser.js";
import { startServer, type RunningServer } from "../support/server.js";

// Shared set-up of the customer browser tests: the demo data (customers with balances, some marked
// for deletion, some archived) and its Greenway owner, who works on one client without picking it.

export const OWNER_EMAIL = "owner@greenway.example";

export type CustomerWorld = {
  server: RunningServer;
  browser: Browser;
  owner: DemoLogin;
  api: ApiSession;
  stop: () => Promise<void>;
};

export async function startCustomerWorld(): Promise<CustomerWorld> {
  const server = await startServer({ demo: true });
  try {
    const owner = demoLogin(await readDemoLogins(server), OWNER_EMAIL);
    const api = await apiLogIn(server, owner.email, owner.password);
    const browser = await launchBrowser();
    return {
      server,
      browser,
      owner,
      api,
      stop: async () => {
        await browser.close();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

export async function ownerPage(world: CustomerWorld): Promise<Page> {
  const page = await newPage(world.browser, world.server.baseUrl);
  await logIn(page, world.owner.email, world.owner.password);
  return page;
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

export function customerRow(page: Page, name: string): Locator {
  return page
    .getByRole("table", { name: "Customers" })
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name, exact: true }) });
}
