import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { TEST_ADDRESS, type ApiSession } from "../support/api.js";
import { uncaught } from "../support/auth.js";
import { customerRow, filterList, openCustomerList, useCustomerWorld } from "./customer-fixtures.js";

// Issue 41.7, what a clerk met in the customer editor and list: edits lost on leaving without a
// warning, a recurring charge's month cleared by picking it again, the no-phone 0000000000 dropped
// by a save, a list that hid balance and actions sideways on a phone, and "1 customers".

type Customer = { id: number; customer_name: string; phone1: string; last_name: string };

async function addCustomer(api: ApiSession, body: Record<string, string>): Promise<Customer> {
  return api.request<Customer>("POST", "customers/", { ...TEST_ADDRESS, ...body });
}

describe("the customer editor and list, as a clerk meets them", () => {
  const world = useCustomerWorld({ startupTimeoutMs: 300_000 });
  let page: Page;
  let pageErrors: string[];
  beforeEach(() => {
    ({ page, pageErrors } = world.current());
  });

  async function openEditor(id: number): Promise<void> {
    await page.goto(`/customers/edit/${String(id)}`);
    await page.getByRole("heading", { level: 1, name: "Edit Customer" }).waitFor();
    await page.getByRole("tab", { name: "Customer Details" }).waitFor();
  }
  const field = (label: string) => page.getByLabel(label, { exact: true });
  const leaveDialog = () => page.getByRole("dialog", { name: "Leave without saving?" });

  test("unsaved edits are not lost on leaving: a warning to stay or leave; a tab or a save needs none", async () => {
    const { api } = world.current();
    const customer = await addCustomer(api, { first_name: "Una", last_name: "Saved" });
    await openEditor(customer.id);
    await field("Last name").fill("Unsaved-Edit");

    // Another tab of the same customer keeps the edit without asking.
    await page.getByRole("tab", { name: "Status" }).click();
    await page.getByRole("tab", { name: "Customer Details" }).click();
    expect(await field("Last name").inputValue()).toBe("Unsaved-Edit");

    // Leaving asks first; staying keeps the edit.
    await page.getByRole("link", { name: "← Back to customers" }).click();
    await leaveDialog().waitFor();
    await page.screenshot({ path: "/tmp/screens-unsaved-warning.png" });
    await leaveDialog().getByRole("button", { name: "Stay on this page" }).click();
    await leaveDialog().waitFor({ state: "hidden" });
    expect(new URL(page.url()).pathname).toBe(`/customers/edit/${String(customer.id)}`);
    expect(await field("Last name").inputValue()).toBe("Unsaved-Edit");

    // Asked again, leaving anyway drops the edit.
    await page.getByRole("link", { name: "← Back to customers" }).click();
    await leaveDialog().getByRole("button", { name: "Leave without saving" }).click();
    await page.getByRole("heading", { level: 1, name: "Manage Customers" }).waitFor();
    expect((await api.request<Customer>("GET", `customers/${String(customer.id)}/`)).last_name).toBe("Saved");

    // Saved edits leave without a question.
    await openEditor(customer.id);
    await field("Last name").fill("Saved-Twice");
    await page.getByRole("button", { name: "Save Customer" }).click();
    await page.getByText("Customer saved.").waitFor();
    await page.getByRole("link", { name: "← Back to customers" }).click();
    await page.getByRole("heading", { level: 1, name: "Manage Customers" }).waitFor();
    expect(await leaveDialog().count()).toBe(0);

    // Closing or reloading the tab with an edit gets the browser's own question.
    await openEditor(customer.id);
    await field("Last name").fill("Closed-Unsaved");
    const asked = new Promise<string>((resolve) => {
      page.once("dialog", (dialog) => {
        resolve(dialog.type());
        void dialog.accept();
      });
    });
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe("beforeunload");
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("picking a recurring charge's selected month again keeps it", async () => {
    const { api } = world.current();
    const customer = await addCustomer(api, { first_name: "Mona", last_name: "Months" });
    await openEditor(customer.id);
    await page.getByRole("tab", { name: "Recurring Charges" }).click();
    const form = page.getByRole("form", { name: "Add a recurring charge" });
    const start = form.getByRole("combobox", { name: "Start month" });
    const end = form.getByRole("combobox", { name: "End month" });
    await start.waitFor();
    expect(await start.inputValue()).toBe("January");
    expect(await end.inputValue()).toBe("December");

    const pick = async (box: typeof start, month: string) => {
      await box.click();
      await page.getByRole("option", { name: month, exact: true }).click();
    };
    await pick(start, "January");
    expect(await start.inputValue()).toBe("January");
    await pick(start, "March");
    expect(await start.inputValue()).toBe("March");
    await pick(start, "March");
    expect(await start.inputValue()).toBe("March");
    await pick(end, "December");
    expect(await end.inputValue()).toBe("December");
    await page.screenshot({ path: "/tmp/screens-recurring-months.png" });
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("a save keeps the no-phone 0000000000 it shows as empty", async () => {
    const { api } = world.current();
    const customer = await addCustomer(api, {
      first_name: "Nolan",
      last_name: "Nophone",
      phone1: "0000000000",
      phone2: "(555)-201-3344",
    });
    expect(customer.phone1).toBe("0000000000");
    await openEditor(customer.id);
    expect(await field("Phone 1").inputValue()).toBe("");
    await field("Last name").fill("Nophone-Saved");
    await page.getByRole("button", { name: "Save Customer" }).click();
    await page.getByText("Customer saved.").waitFor();
    const saved = await api.request<Customer & { phone2: string }>(
      "GET",
      `customers/${String(customer.id)}/`,
    );
    expect(saved).toMatchObject({
      last_name: "Nophone-Saved",
      phone1: "0000000000",
      phone2: "(555)-201-3344",
    });
    expect(await field("Phone 1").inputValue()).toBe("");
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("on a 390×844 phone the list shows name, balance and actions without a sideways scroll", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const table = await openCustomerList(page);
    await page.screenshot({ path: "/tmp/screens-customer-list-390.png", fullPage: true });
    const widths = await page.evaluate(() => {
      const scroller = document.querySelector('table[aria-label="Customers"]')?.parentElement;
      return {
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        table: scroller ? scroller.scrollWidth - scroller.clientWidth : -1,
      };
    });
    expect(widths).toEqual({ page: 0, table: 0 });
    const first = table.getByRole("row").nth(1);
    // The first amount of the row is its balance.
    const balance = first.getByRole("cell").filter({ hasText: "$" }).first();
    const actions = first.getByRole("button", { name: /^Actions for / });
    for (const locator of [balance, actions]) {
      const box = await locator.boundingBox();
      expect(box).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    }
    // The row's menu opens and leads on.
    await actions.click();
    await page.getByRole("menuitem", { name: "Edit customer" }).waitFor();
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("one customer counts as one: '1–1 of 1 customer'", async () => {
    const { api } = world.current();
    await addCustomer(api, { company_name: "Singular Counts LLC" });
    await openCustomerList(page);
    await filterList(page, "Singular Counts");
    await customerRow(page, "Singular Counts LLC").waitFor();
    await page.getByText("1–1 of 1 customer", { exact: true }).waitFor();
    expect(uncaught(pageErrors)).toEqual([]);
  });
});
