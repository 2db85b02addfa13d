import { addDays } from "@cyclebill/domain";
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { formatIsoDate } from "../../apps/web/src/lib/format.js";
import { uncaught } from "../support/auth.js";
import { findCustomer, pickCode, useCustomerWorld } from "./customer-fixtures.js";

// Issue 28 point 4: a recurring charge bills from the start date the user gives it (blank: the day
// it is added), never before the customer's open date. The Recurring Charges tab takes the date,
// shows the server's refusal under it, and lists when each charge bills from.

describe("a recurring charge's start date on the Recurring Charges tab", () => {
  // The demo seeds months of history first: on a machine shared with other test runs that took
  // past the default two minutes.
  const world = useCustomerWorld({ startupTimeoutMs: 300_000 });
  let page: Page;
  let pageErrors: string[];
  beforeEach(() => {
    ({ page, pageErrors } = world.current());
  });

  test("is refused before the open date, shown as Bills from, and cleared back to the day it was added", async () => {
    const { api } = world.current();
    const found = await findCustomer(api, "Ben Hughes");
    const customer = await api.request<{ id: number; open_date: string }>("GET", `customers/${found.id}/`);
    await page.goto(`/customers/edit/${customer.id}`);
    await page.getByRole("heading", { level: 1, name: "Edit Customer" }).waitFor();
    await page.getByRole("tab", { name: "Recurring Charges" }).click();
    const form = page.getByRole("form", { name: "Add a recurring charge" });
    const table = page.getByRole("table", { name: "Recurring charges" });
    await table.waitFor();

    await pickCode(page, form, "100");
    await form.getByLabel("Description").fill("Pool service");
    await form.getByLabel("Rate").fill("45");
    await form.getByLabel("Start date").fill(addDays(customer.open_date, -1));
    await form.getByRole("button", { name: "Add Recurring Charge" }).click();
    const [year, month, day] = customer.open_date.split("-");
    await form
      .getByText(`The start date can't be before the customer's open date (${month}/${day}/${year}).`)
      .waitFor();

    const start = addDays(customer.open_date, 400);
    await form.getByLabel("Start date").fill(start);
    await form.getByRole("button", { name: "Add Recurring Charge" }).click();
    const row = table.getByRole("row").filter({ hasText: "Pool service" });
    await row.getByText(formatIsoDate(start)).waitFor();
    expect(await table.getByRole("columnheader", { name: "Bills from" }).count()).toBe(1);
    await page.screenshot({ path: "/tmp/screens-recurring-start-date.png", fullPage: true });

    // Cleared: it bills from the day it was added.
    await row.getByRole("button", { name: /^Edit recurring charge/ }).click();
    const editor = table.getByRole("group", { name: /^Edit recurring charge/ });
    expect(await editor.getByLabel("Start date").inputValue()).toBe(start);
    await editor.getByLabel("Start date").fill("");
    await editor.getByRole("button", { name: "Save" }).click();
    await editor.waitFor({ state: "detached" });
    const charges = await api.request<{
      results: { description: string; start_date: string | null; created: string }[];
    }>("GET", `autoamounts/?customer__id=${customer.id}`);
    const saved = charges.results.find((charge) => charge.description === "Pool service");
    expect(saved?.start_date).toBeNull();
    await table
      .getByRole("row")
      .filter({ hasText: "Pool service" })
      .getByText(formatIsoDate(saved!.created.slice(0, 10)))
      .waitFor();
    expect(uncaught(pageErrors)).toEqual([]);
  });
});
