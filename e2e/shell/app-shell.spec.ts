import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { logIn } from "../support/auth.js";
import { useBrowserWorld } from "../support/browser-world.js";

const ADMIN_EMAIL = "shell-admin@example.test";
const ADMIN_PASSWORD = "shell-Admin-Password-1";

describe("app shell", () => {
  const world = useBrowserWorld({ admin: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  let page: Page;
  let pageErrors: string[];
  beforeEach(() => {
    ({ page, pageErrors } = world.current());
  });

  const base = () => world.current().server.baseUrl;

  const heading = (name: string) => page.getByRole("heading", { level: 1, name, exact: true });

  test("the app loads at / without errors", async () => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await heading("Login").waitFor();
    expect(await page.getByRole("banner").textContent()).toContain("Cyclebill");
    expect(await page.title()).toContain("Cyclebill");
    // Logged-out pages have no navbar.
    expect(await page.getByRole("navigation").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  test("a deep link survives a reload (history-mode fallback)", async () => {
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    const first = await page.goto("/customers/manage");
    expect(first?.status()).toBe(200);
    await heading("Manage Customers").waitFor();

    const reloaded = await page.reload();
    expect(reloaded?.status()).toBe(200);
    await heading("Manage Customers").waitFor();
    expect(await page.getByText("Page not found").count()).toBe(0);

    const customersLink = page.getByRole("navigation").getByRole("link", { name: "Customers", exact: true });
    expect(await customersLink.getAttribute("aria-current")).toBe("page");
  });

  test("navbar links navigate in the browser (an admin sees every entry)", async () => {
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.goto("/home");
    await page.getByRole("heading", { level: 1, name: /^Welcome, / }).waitFor();
    const nav = page.getByRole("navigation");
    const labels = await nav.getByRole("link").allTextContents();
    expect(labels).toEqual([
      "Home",
      "Admin Processing",
      "Clients",
      "Customers",
      "Grouping",
      "Bill Codes",
      "Transactions",
      "Invoices & Statements",
      "Reports",
      "Access review",
      "Help",
      "Settings",
      "Security",
      "Signout",
    ]);

    await nav.getByRole("link", { name: "Bill Codes" }).click();
    await heading("Bill Codes").waitFor();
    expect(new URL(page.url()).pathname).toBe("/codes");
  });

  test("legacy and parent paths redirect", async () => {
    await page.goto("/login");
    await heading("Login").waitFor();
    expect(new URL(page.url()).pathname).toBe("/");

    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.goto("/transactions?client_id=4");
    await heading("Search Transactions").waitFor();
    expect(new URL(page.url()).pathname).toBe("/transactions/search");
    // Redirects keep the query (the selected client).
    expect(new URL(page.url()).searchParams.get("client_id")).toBe("4");

    await page.goto("/customers");
    await heading("Manage Customers").waitFor();
    expect(new URL(page.url()).pathname).toBe("/customers/manage");
  });

  test("an unknown page shows Page not found", async () => {
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.goto("/no-such-page");
    await heading("Page not found").waitFor();
    await page.getByRole("link", { name: "Go to Home" }).click();
    await page.getByRole("heading", { level: 1, name: /^Welcome, / }).waitFor();
  });

  test("an unknown API path is a JSON 404, not index.html", async () => {
    const response = await fetch(`${base()}/api/no-such-thing/`, { headers: { Accept: "application/json" } });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    const body = (await response.json()) as { detail?: unknown };
    expect(typeof body.detail).toBe("string");
  });
});
