import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { demoLogin, logIn, uncaught, type DemoLogin } from "../support/auth.js";
import { useBrowserWorld } from "../support/browser-world.js";

const ADMIN_EMAIL = "roles-admin@example.test";
const ADMIN_PASSWORD = "roles-Admin-Password-1";

describe("what each role sees", () => {
  // Demo data: two clients, each with an owner, a staff user and customers.
  const world = useBrowserWorld({ demo: true, admin: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  let logins: readonly DemoLogin[] = [];
  let page: Page;
  let pageErrors: string[];
  beforeEach(() => {
    ({ logins, page, pageErrors } = world.current());
  });

  const navLabels = () => page.getByRole("navigation").getByRole("link").allTextContents();
  const card = (name: string) => page.getByRole("region", { name, exact: true });
  const clientSelect = () => page.getByLabel("Client Select", { exact: true });
  const customerSelect = () => page.getByLabel("Customer Select", { exact: true });

  test("client staff see the counts but no summary cards and no admin entries", async () => {
    const staff = demoLogin(logins, "staff@greenway.example");
    await logIn(page, staff.email, staff.password);
    await page.getByRole("heading", { level: 1, name: /^Welcome, / }).waitFor();
    await card("Customers").waitFor();
    await card("Transactions").waitFor();
    expect(await card("Accounts Receivable").count()).toBe(0);
    expect(await card("This month").count()).toBe(0);
    expect(await card("Your Balance").count()).toBe(0);

    const labels = await navLabels();
    expect(labels).not.toContain("Admin Processing");
    expect(labels).not.toContain("Clients");
    expect(labels).toContain("Settings");
    expect(labels).toContain("Signout");
    expect(await clientSelect().count()).toBe(0);
    // Locked to their own client, whose name the top bar shows.
    expect(await page.getByRole("banner").textContent()).toContain("Greenway Lawn & Garden");
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("an owner sees the three summary cards and the client message under the bell", async () => {
    const owner = demoLogin(logins, "owner@greenway.example");
    await logIn(page, owner.email, owner.password);
    await page.getByRole("heading", { level: 1, name: "Welcome, Olivia Greenway" }).waitFor();
    await card("Accounts Receivable").waitFor();
    await card("This month").waitFor();
    await card("Your Balance").waitFor();
    // Amounts are dollars.
    expect(await card("Your Balance").textContent()).toMatch(/\$[\d,]+\.\d{2}/);

    const labels = await navLabels();
    expect(labels).not.toContain("Admin Processing");
    expect(labels).not.toContain("Clients");

    await page.getByRole("button", { name: /^Notifications/ }).click();
    await page.getByText("Welcome to Greenway Lawn & Garden billing.").waitFor();
    await page.getByText("System message").waitFor();

    // The add-customer card links to the customer list in add mode.
    await card("Customers")
      .getByRole("link", { name: /Add a customer/ })
      .click();
    await page.waitForURL((url) => url.pathname === "/customers/manage");
    expect(new URL(page.url()).searchParams.get("mode")).toBe("add");
  });

  test("an admin picks a client, which goes into the address, and finds a customer", async () => {
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.getByText("Choose a client to get started").waitFor();
    const labels = await navLabels();
    expect(labels).toContain("Admin Processing");
    expect(labels).toContain("Clients");
    expect(await customerSelect().isDisabled()).toBe(true);

    await clientSelect().click();
    await clientSelect().pressSequentially("green");
    await page.getByRole("option", { name: /Greenway Lawn & Garden/ }).click();
    await page.waitForURL((url) => url.searchParams.has("client_id"));
    const clientId = new URL(page.url()).searchParams.get("client_id");
    expect(clientId).toMatch(/^\d+$/);
    await card("Accounts Receivable").waitFor();
    expect(await page.getByRole("banner").textContent()).toContain("Greenway Lawn & Garden");

    // The customer typeahead searches the selected client's customers.
    await customerSelect().click();
    await customerSelect().pressSequentially("anders");
    await page.getByRole("option", { name: /Ava Anders/ }).click();
    expect(await customerSelect().inputValue()).toContain("Ava Anders");

    // Menu links carry the client; the customer stays selected on the next screen.
    await page.getByRole("navigation").getByRole("link", { name: "Help" }).click();
    await page.getByRole("heading", { level: 1, name: "Help" }).waitFor();
    expect(new URL(page.url()).searchParams.get("client_id")).toBe(clientId);
    expect(await customerSelect().inputValue()).toContain("Ava Anders");

    // Choosing another client is a new history entry and clears the customer.
    await clientSelect().click();
    await clientSelect().pressSequentially("harbor");
    await page.getByRole("option", { name: /Harbor Water Co-op/ }).click();
    await page.waitForURL((url) => url.searchParams.get("client_id") !== clientId);
    expect(await customerSelect().inputValue()).toBe("");
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get("client_id") === clientId);
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("the typeahead says when nothing matches", async () => {
    const owner = demoLogin(logins, "owner@greenway.example");
    await logIn(page, owner.email, owner.password);
    await customerSelect().click();
    await customerSelect().pressSequentially("zzzz-nobody");
    await page.getByText("No matches found").waitFor();
  });
});
