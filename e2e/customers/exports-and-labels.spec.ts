import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { demoLogin, logIn, readDemoLogins, uncaught } from "../support/auth.js";
import { newPage } from "../support/browser.js";
import { customerRow, filterList, openCustomerList, useCustomerWorld } from "./customer-fixtures.js";

describe("customer exports, address labels and the admin's client choice", () => {
  const world = useCustomerWorld();
  let page: Page;
  let pageErrors: string[];
  beforeEach(() => {
    ({ page, pageErrors } = world.current());
  });

  async function download(button: string) {
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: button }).click(),
    ]);
    const path = await file.path();
    return { name: file.suggestedFilename(), bytes: await readFile(path) };
  }

  test("Export CSV downloads Customers.zip and the balance report Customer-Balance-Sheet.pdf", async () => {
    await openCustomerList(page);
    const zip = await download("Export CSV");
    expect(zip.name).toBe("Customers.zip");
    expect(zip.bytes.subarray(0, 2).toString("latin1")).toBe("PK");

    const pdf = await download("Balance Sheet PDF");
    expect(pdf.name).toBe("Customer-Balance-Sheet.pdf");
    expect(pdf.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("'since last statement' and 'this month' are labelled as what they sum (issue 28 point 6)", async () => {
    // The list's figures are the ones a statement resets: named so, never "current" or "MTD".
    const table = await openCustomerList(page);
    const headers = (await table.getByRole("columnheader").allInnerTexts()).map((text) =>
      text.split("\n")[0]!.trim(),
    );
    expect(headers).toContain("Charges since last statement");
    expect(headers).toContain("Payments & credits since last statement");
    expect(headers.join(" | ")).not.toMatch(/current charges|\bMTD\b|month to date/i);

    // Home's card sums the calendar month, from its 1st to its last day.
    await page.goto("/");
    const month = page.getByRole("region", { name: "This month", exact: true });
    await month.getByText("Charges", { exact: true }).waitFor();
    expect(await month.innerText()).toMatch(/[A-Z][a-z]{2} 1, \d{4} – [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    expect(await page.getByText(/month to date|current month/i).count()).toBe(0);
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("the selected customers' address labels: name and address lines, ready to print", async () => {
    const table = await openCustomerList(page);
    await table.getByRole("checkbox", { name: "Select Ava Anders" }).first().check();
    await table.getByRole("checkbox", { name: "Select Ben Hughes" }).check();
    // The selection survives filtering to another customer.
    await filterList(page, "Riverside Diner");
    await customerRow(page, "Riverside Diner").getByRole("checkbox").check();
    await page.getByText("3 selected").waitFor();

    await page.getByRole("button", { name: "Print Address Labels" }).click();
    await page.waitForURL((url) => url.pathname === "/customerPrintView");
    await page.getByRole("heading", { level: 1, name: "Address Labels" }).waitFor();
    const labels = page.getByRole("list", { name: "Address labels" }).getByRole("listitem");
    await labels.nth(2).waitFor();
    expect(await labels.count()).toBe(3);
    const texts = (await labels.allInnerTexts()).map((text) => text.split("\n").filter(Boolean).join("\n"));
    const ava = texts.find((text) => text.startsWith("Ava Anders"));
    expect(ava?.split("\n")).toEqual(["Ava Anders", "100 Maple St", "Springfield, IL 62701"]);
    expect(texts.some((text) => text.startsWith("Ben Hughes\n"))).toBe(true);
    expect(texts.some((text) => text.startsWith("Riverside Diner\n"))).toBe(true);
    await page.getByRole("button", { name: "Print" }).waitFor();
    expect(await page.getByRole("button", { name: "Print" }).isEnabled()).toBe(true);

    // Back to the list: selecting a whole page at once.
    await page.getByRole("link", { name: "← Back to customers" }).click();
    await page.getByRole("checkbox", { name: "Select every customer on this page" }).check();
    await page.getByText("15 selected").waitFor();
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("an admin picks a client before the customers show", async () => {
    const { server, browser } = world.current();
    const admin = demoLogin(await readDemoLogins(server), "admin@cyclebill.example");
    const adminPage = await newPage(browser, server.baseUrl);
    try {
      await logIn(adminPage, admin.email, admin.password);
      await adminPage.goto("/customers/manage");
      await adminPage.getByText("Choose a client first").waitFor();
      expect(await adminPage.getByRole("table", { name: "Customers" }).count()).toBe(0);

      const client = adminPage.getByLabel("Client Select", { exact: true });
      await client.click();
      await client.pressSequentially("harbor");
      await adminPage.getByRole("option", { name: /Harbor Water Co-op/ }).click();
      await adminPage.waitForURL((url) => url.searchParams.has("client_id"));
      const table = adminPage.getByRole("table", { name: "Customers" });
      await table.getByRole("row").nth(15).waitFor();
      // The editor link keeps the client.
      await table.getByRole("row").nth(1).getByRole("link").first().click();
      await adminPage.waitForURL((url) => url.pathname.startsWith("/customers/edit/"));
      expect(new URL(adminPage.url()).searchParams.get("client_id")).toMatch(/^\d+$/);
      await adminPage.getByRole("heading", { level: 1, name: "Edit Customer" }).waitFor();
    } finally {
      await adminPage.context().close();
    }
  });
});
