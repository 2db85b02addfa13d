import {
  EMAIL_REQUIRED_MESSAGE,
  NO_GROUP_SELECTED_MESSAGE,
  RATE_INVALID_MESSAGE,
  RECURRING_REQUIRED_MESSAGE,
  STORED_DESCRIPTION_TOO_LONG,
} from "@cyclebill/domain";
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { formatIsoDate } from "../../apps/web/src/lib/format.js";
import { uncaught } from "../support/auth.js";
import {
  customerRow,
  filterList,
  findCustomer,
  openCustomerList,
  pickCode,
  useCustomerWorld,
} from "./customer-fixtures.js";

function usd(amount: string): string {
  const [whole = "0", cents = "00"] = amount.replace("-", "").split(".");
  return `${amount.startsWith("-") ? "-" : ""}$${whole.replace(/\B(?=(\d{3})+$)/g, ",")}.${cents.padEnd(2, "0")}`;
}

describe("the customer editor", () => {
  const world = useCustomerWorld();
  let page: Page;
  let pageErrors: string[];
  beforeEach(() => {
    ({ page, pageErrors } = world.current());
  });

  /** Opens a customer's editor from Manage Customers, as a user does. */
  async function openEditor(name: string, tab?: string) {
    await openCustomerList(page);
    await filterList(page, name);
    await customerRow(page, name).getByRole("link", { name }).click();
    await page.getByRole("heading", { level: 1, name: "Edit Customer" }).waitFor();
    await page.getByRole("tab", { name: "Customer Details" }).waitFor();
    if (tab) await page.getByRole("tab", { name: tab }).click();
  }

  test("Customer Details: edit every kind of field and Save Customer, with the spec's messages", async () => {
    await openEditor("Ben Hughes");
    expect(page.url()).toMatch(/\/customers\/edit\/\d+$/);
    const field = (label: string | RegExp) => page.getByLabel(label, { exact: true });
    const select = (label: string) => page.getByRole("combobox", { name: label, exact: true });
    expect(await field("First name").inputValue()).toBe("Ben");

    await field("Last name").fill("Hughes-Smith");
    await field("Property address line 1").fill("9 Farm Rd");
    await field("Property city").fill("Chatham");
    // Picked with the keyboard, as a typist does: on CI's slower machine the pointer's click on the
    // option twice waited out its time (the list still moving as it filters).
    await select("Property state").fill("Illinois");
    await page.getByRole("option", { name: "IL · Illinois" }).waitFor();
    await select("Property state").press("ArrowDown");
    await select("Property state").press("Enter");
    expect(await select("Property state").inputValue()).toBe("IL · Illinois");
    await field("Property zip").fill("62629");
    await field("Statement message").fill("Thank you for ten years with us.");
    await select("Finance flag").click();
    await page.getByRole("option", { name: "N · No late fees" }).click();
    await select("Tax status").click();
    await page.getByRole("option", { name: "F · Tax exempt" }).click();
    // Email statements need an email.
    await select("Statement flag").click();
    await page.getByRole("option", { name: "E · Email only" }).click();
    await field(/^Email/).fill("");
    await page.getByRole("button", { name: "Save Customer" }).click();
    const failed = page.getByRole("alert").filter({ hasText: "The customer was not saved" });
    await failed.getByText(EMAIL_REQUIRED_MESSAGE).waitFor();

    await field(/^Email/).fill("ben@hughes.example");
    await page.getByRole("button", { name: "Save Customer" }).click();
    await page.getByRole("alert").filter({ hasText: "Customer saved." }).waitFor();
    await page.getByText("1002 · Ben Hughes-Smith").waitFor();

    const saved = await world
      .current()
      .api.request<Record<string, unknown>>(
        "GET",
        `customers/${(await findCustomer(world.current().api, "Hughes-Smith")).id}/`,
      );
    expect(saved).toMatchObject({
      last_name: "Hughes-Smith",
      property_address1: "9 Farm Rd",
      property_city: "Chatham",
      property_state: "IL",
      property_zip: "62629",
      message: "Thank you for ten years with us.",
      finance_flag: "N",
      tax_status: "F",
      pull_flag: "E",
      bi_pull_flag: "E",
      email: "ben@hughes.example",
    });
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("Stored Amounts: add with the live amount, edit in place, a failed save stays open, delete", async () => {
    await openEditor("Carla Eriksen", "Stored Amounts");
    const form = page.getByRole("form", { name: "Add a stored amount" });
    const table = page.getByRole("table", { name: "Stored amounts" });
    await table.getByText("No stored amounts yet.").waitFor();

    await form.getByLabel("Description").fill("y".repeat(61));
    await form.getByLabel("Rate").fill("12.5a");
    await form.getByRole("button", { name: "Add Stored Amount" }).click();
    await form.getByText(STORED_DESCRIPTION_TOO_LONG).waitFor();
    await form.getByText(RATE_INVALID_MESSAGE).waitFor();

    await pickCode(page, form, "110");
    await form.getByLabel("Description").fill("Hedge trimming");
    await form.getByLabel("Rate").fill("12.5");
    await form.getByLabel("Quantity").fill("3");
    expect(await form.getByTestId("live-amount").textContent()).toBe("$37.50");
    await form.getByRole("button", { name: "Add Stored Amount" }).click();
    const row = table.getByRole("row").filter({ hasText: "Hedge trimming" });
    await row.waitFor();
    expect(await row.textContent()).toContain("$37.50");
    expect(await row.textContent()).toContain("110 · Extra service visit");
    // The form is blank again for the next one.
    expect(await form.getByLabel("Description").inputValue()).toBe("");

    await row.getByRole("button", { name: /^Edit stored amount/ }).click();
    const editor = table.getByRole("group", { name: /^Edit stored amount/ });
    await editor.getByLabel("Quantity").fill("4");
    expect(await editor.getByTestId("live-amount").textContent()).toBe("$50.00");

    // A failed update is logged and the row stays in editing with what was typed.
    await page.route(
      (url) => url.pathname.startsWith("/api/storedamounts/"),
      (route) =>
        route.request().method() === "PUT"
          ? route.fulfill({ status: 400, json: { non_field_errors: ["The stored amount is locked."] } })
          : route.fallback(),
    );
    await editor.getByRole("button", { name: "Save" }).click();
    await editor.getByText("The stored amount is locked.").waitFor();
    expect(await editor.getByLabel("Quantity").inputValue()).toBe("4");
    await page.unrouteAll();

    await editor.getByRole("button", { name: "Save" }).click();
    await editor.waitFor({ state: "detached" });
    await table.getByRole("row").filter({ hasText: "$50.00" }).waitFor();

    await table.getByRole("button", { name: /^Delete stored amount/ }).click();
    const confirm = page.getByRole("dialog", { name: "Delete stored amount" });
    await confirm.getByRole("button", { name: "Delete stored amount" }).click();
    await table.getByText("No stored amounts yet.").waitFor();
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("Recurring Charges: the spec's message, then add, edit and delete", async () => {
    await openEditor("Dev Brooks", "Recurring Charges");
    const form = page.getByRole("form", { name: "Add a recurring charge" });
    const table = page.getByRole("table", { name: "Recurring charges" });
    await table.getByText("No recurring charges yet.").waitFor();

    await form.getByRole("button", { name: "Add Recurring Charge" }).click();
    await form.getByText(RECURRING_REQUIRED_MESSAGE).first().waitFor();

    await pickCode(page, form, "100");
    await form.getByLabel("Rate").fill("30");
    await form.getByLabel("Quantity").fill("2");
    expect(await form.getByTestId("live-amount").textContent()).toBe("$60.00");
    await form.getByLabel("Start month").click();
    await page.getByRole("option", { name: "March" }).click();
    await form.getByLabel("End month").click();
    await page.getByRole("option", { name: "November" }).click();
    await form.getByLabel("Frequency").click();
    await page.getByRole("option", { name: "Quarterly" }).click();
    await form.getByText("Arrears", { exact: true }).click();
    await form.getByRole("button", { name: "Add Recurring Charge" }).click();

    const row = table.getByRole("row").filter({ hasText: "Weekly lawn service" });
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain("$60.00");
    expect(text).toContain("Mar – Nov");
    expect(text).toContain("Quarterly");
    expect(text).toContain("Arrears");

    await row.getByRole("button", { name: /^Edit recurring charge/ }).click();
    const editor = table.getByRole("group", { name: /^Edit recurring charge/ });
    await editor.getByLabel("Rate").fill("35");
    await editor.getByText("Advance", { exact: true }).click();
    await editor.getByRole("button", { name: "Save" }).click();
    await editor.waitFor({ state: "detached" });
    const edited = table.getByRole("row").filter({ hasText: "$70.00" });
    await edited.getByText("Advance").waitFor();

    await edited.getByRole("button", { name: /^Delete recurring charge/ }).click();
    await page
      .getByRole("dialog", { name: "Delete recurring charge" })
      .getByRole("button", { name: "Delete recurring charge" })
      .click();
    await table.getByText("No recurring charges yet.").waitFor();
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("Status shows the dates, balances, ageing and activity of the customer", async () => {
    const grace = await findCustomer(world.current().api, "Grace Castillo");
    const summary = await world
      .current()
      .api.request<Record<string, string | null>>("GET", `summary-data/customer/${grace.id}`);
    await openEditor("Grace Castillo", "Status");
    const ageing = page.getByRole("table", { name: "Ageing" });
    await ageing.waitFor();
    const headers = await ageing.getByRole("columnheader").allTextContents();
    expect(headers).toEqual(["Current", "30 days", "60 days", "90 days", "Over 90 days"]);
    const cells = await ageing.getByRole("cell").allTextContents();
    expect(cells).toEqual(
      [
        "current_balance",
        "overdue_30_days",
        "overdue_60_days",
        "overdue_90_days",
        "overdue_over_90_days",
      ].map((key) => usd(summary[key] ?? "0.00")),
    );
    expect(await page.getByRole("group", { name: "Balance", exact: true }).textContent()).toContain(
      usd(summary.balance ?? "0.00"),
    );
    const activity = page.getByRole("table", { name: "Activity" });
    const charges = activity.getByRole("row").filter({ hasText: "Charges" });
    expect(await charges.textContent()).toContain(usd(summary.ytdCharges ?? "0.00"));
    // The last charge and the last payment show their amounts and dates, not "—".
    const lastCells = async (name: string) =>
      (await activity.getByRole("row").filter({ hasText: name }).getByRole("cell").allTextContents()).slice(
        -2,
      );
    expect(summary.last_charge_amount).toBeTruthy();
    expect(summary.last_pay_amount).toBeTruthy();
    expect(await lastCells("Charges")).toEqual([
      usd(summary.last_charge_amount ?? ""),
      formatIsoDate(summary.last_charge_date ?? ""),
    ]);
    expect(await lastCells("Payments")).toEqual([
      usd(summary.last_pay_amount ?? ""),
      formatIsoDate(summary.last_pay_date_1 ?? ""),
    ]);
    await page.screenshot({ path: "/tmp/screens-status-last-amounts.png", fullPage: true });
    await activity.getByRole("row").filter({ hasText: "Payments" }).waitFor();
    await activity.getByRole("row").filter({ hasText: "Credit adjustments" }).waitFor();
    await activity.getByRole("row").filter({ hasText: "Debit adjustments" }).waitFor();
    await page.getByRole("table", { name: "Dates" }).getByText("Opened").waitFor();
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("Groups: a group must be chosen; add at a position, change the processing type, remove", async () => {
    await openEditor("Ines Garcia", "Groups");
    const form = page.getByRole("form", { name: "Add to a group" });
    const table = page.getByRole("table", { name: "Group memberships" });
    // Demo customers start in one of the two groups.
    await table
      .getByLabel(/^Position in /)
      .first()
      .waitFor();

    await form.getByRole("button", { name: "Add to Group" }).click();
    await form.getByText(NO_GROUP_SELECTED_MESSAGE).waitFor();

    await form.getByLabel("Group").click();
    const option = page.getByRole("option").first();
    const groupName = ((await option.textContent()) ?? "").trim();
    await option.click();
    await form.getByLabel(/^Position/).fill("1");
    await form.getByLabel("Processing").click();
    await page.getByRole("option", { name: "Skip" }).click();
    await form.getByRole("button", { name: "Add to Group" }).click();
    await page.getByText(`Added to ${groupName} at position 1.`).waitFor();
    await table.getByLabel(`Position in ${groupName}`).waitFor();
    expect(await table.getByLabel(`Position in ${groupName}`).inputValue()).toBe("1");
    expect(await table.getByLabel(`Processing in ${groupName}`).inputValue()).toBe("Skip");

    await table.getByLabel(`Processing in ${groupName}`).click();
    await page.getByRole("option", { name: "Pause" }).click();
    await table.getByRole("button", { name: `Save changes to ${groupName}` }).click();
    await page.getByText(`${groupName}: position 1, pause.`).waitFor();

    await table.getByRole("button", { name: `Remove from ${groupName}` }).click();
    await page
      .getByRole("dialog", { name: "Remove from group" })
      .getByRole("button", { name: "Remove" })
      .click();
    await page.getByText(`Removed from ${groupName}.`).waitFor();
    await table.getByLabel(`Position in ${groupName}`).waitFor({ state: "detached" });
    expect(uncaught(pageErrors)).toEqual([]);
  });
});
