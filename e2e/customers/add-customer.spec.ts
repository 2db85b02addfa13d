import {
  ADDRESS_INVALID_MESSAGE,
  EMAIL_REQUIRED_MESSAGE,
  NAME_REQUIRED_MESSAGE,
  RATE_INVALID_MESSAGE,
  RECURRING_REQUIRED_MESSAGE,
  STORED_DESCRIPTION_TOO_LONG,
} from "@cyclebill/domain";
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { uncaught } from "../support/auth.js";
import {
  customerRow,
  filterList,
  findCustomer,
  openCustomerList,
  pickCode,
  useCustomerWorld,
} from "./customer-fixtures.js";

describe("Add Customer", () => {
  const world = useCustomerWorld();
  let page: Page;
  let pageErrors: string[];
  beforeEach(() => {
    ({ page, pageErrors } = world.current());
  });

  const dialog = () => page.getByRole("dialog", { name: "Add Customer" });
  const field = (label: string | RegExp) => dialog().getByLabel(label, { exact: true });
  const select = (label: string) => dialog().getByRole("combobox", { name: label, exact: true });
  const problems = () => dialog().getByRole("alert").filter({ hasText: "The customer was not added" });

  async function pickOption(label: string, option: string | RegExp) {
    await select(label).click();
    await page.getByRole("option", { name: option }).click();
  }

  test("opens from mode=add with the spec's defaults and shows every validation message", async () => {
    await page.goto("/customers/manage?mode=add");
    await dialog().waitFor();
    // Defaults: mail statements, mail invoices, the client's late fees, taxable.
    expect(await select("Statement flag").inputValue()).toBe("A · Mail");
    expect(await select("Invoice flag").inputValue()).toBe("M · Mail");
    expect(await select("Finance flag").inputValue()).toBe("C · Use the client's setting");
    expect(await select("Tax status").inputValue()).toBe("T · Taxable");
    expect(await field("Customer number").getAttribute("placeholder")).toBe("Assigned automatically");

    // The invoice flag follows the statement flag: M (email and mail) gives B.
    await pickOption("Statement flag", "M · Email and mail");
    expect(await select("Invoice flag").inputValue()).toBe("B · Email and mail");

    await field("Zip").fill("123");
    await dialog()
      .getByRole("button", { name: /Recurring charges/ })
      .click();
    await dialog().getByRole("button", { name: "Add recurring charge" }).click();
    await dialog()
      .getByRole("button", { name: /Stored amounts/ })
      .click();
    await dialog().getByRole("button", { name: "Add stored amount" }).click();
    const stored = dialog().getByRole("group", { name: "Stored amount 1" });
    await stored.getByLabel("Description").fill("x".repeat(61));
    await stored.getByLabel("Rate").fill("12,50");

    await dialog().getByRole("button", { name: "Save", exact: true }).click();
    await problems().waitFor();
    const text = await problems().textContent();
    expect(text).toContain(NAME_REQUIRED_MESSAGE);
    expect(text).toContain(ADDRESS_INVALID_MESSAGE);
    expect(text).toContain(EMAIL_REQUIRED_MESSAGE);
    expect(text).toContain(RECURRING_REQUIRED_MESSAGE);
    // Field messages under the inputs.
    await dialog().getByText("Must be 5 digits").waitFor();
    await dialog().getByText("City required").waitFor();
    await stored.getByText(STORED_DESCRIPTION_TOO_LONG).waitFor();
    await stored.getByText(RATE_INVALID_MESSAGE).waitFor();
    // Nothing was sent: the dialog is still open.
    expect(await dialog().isVisible()).toBe(true);
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("Save and New saves and reopens a blank form; Save closes; both appear in the list", async () => {
    await openCustomerList(page);
    await page.getByRole("button", { name: "Add Customer" }).click();
    await dialog().waitFor();
    expect(new URL(page.url()).searchParams.get("mode")).toBe("add");

    await field("First name").fill("Nora");
    await field("Last name").fill("Quist");
    await field("Phone 1").fill("5551234567");
    expect(await field("Phone 1").inputValue()).toBe("(555)-123-4567");
    // The address rule applies to every customer (issue 28, point 8).
    await field("Address line 1").fill("2 Orchard Way");
    await field("City").fill("Springfield");
    await select("State").fill("Illinois");
    await page.getByRole("option", { name: "IL · Illinois" }).click();
    await field("Zip").fill("62701");
    await dialog().getByRole("button", { name: "Save and New" }).click();
    await page.getByText(/Customer \d+ · Nora Quist was added\./).waitFor();
    // Still open, and blank again with the defaults back.
    expect(await dialog().isVisible()).toBe(true);
    expect(await field("First name").inputValue()).toBe("");
    expect(await field("Last name").inputValue()).toBe("");
    expect(await field("Phone 1").inputValue()).toBe("");
    expect(await select("Statement flag").inputValue()).toBe("A · Mail");

    await field("Company name").fill("Quist Orchards");
    await pickOption("Statement flag", "E · Email only");
    expect(await select("Invoice flag").inputValue()).toBe("E · Email");
    await field(/^Email/).fill("billing@quist.example");
    await field("Address line 1").fill("4 Orchard Way");
    await field("City").fill("Springfield");
    await select("State").fill("Illinois");
    await page.getByRole("option", { name: "IL · Illinois" }).click();
    await field("Zip").fill("62701");
    await dialog().getByRole("button", { name: "Save", exact: true }).click();
    await dialog().waitFor({ state: "hidden" });
    expect(new URL(page.url()).searchParams.get("mode")).toBeNull();

    await filterList(page, "Quist");
    await customerRow(page, "Nora Quist").waitFor();
    await customerRow(page, "Quist Orchards").waitFor();
    const saved = await findCustomer(world.current().api, "Quist Orchards");
    const record = await world
      .current()
      .api.request<Record<string, unknown>>("GET", `customers/${saved.id}/`);
    expect(record).toMatchObject({
      company_name: "Quist Orchards",
      pull_flag: "E",
      bi_pull_flag: "E",
      finance_flag: "C",
      email: "billing@quist.example",
      state: "IL",
    });
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("a new customer comes with its recurring charge, stored amount and group in one save", async () => {
    await page.goto("/addCustomer");
    const form = page.getByRole("form", { name: "Add Customer" });
    // Add Customer belongs to the Customers section of the navigation.
    await form.waitFor();
    expect(
      await page
        .getByRole("navigation")
        .getByRole("link", { name: "Customers" })
        .getAttribute("aria-current"),
    ).toBe("page");
    await form.getByLabel("First name", { exact: true }).fill("Olga");
    await form.getByLabel("Last name", { exact: true }).fill("Petrov");
    // The address rule applies to every customer (issue 28, point 8).
    await form.getByLabel("Address line 1", { exact: true }).fill("7 Birch Rd");
    await form.getByLabel("City", { exact: true }).fill("Springfield");
    await form.getByRole("combobox", { name: "State", exact: true }).fill("Illinois");
    await page.getByRole("option", { name: "IL · Illinois" }).click();
    await form.getByLabel("Zip", { exact: true }).fill("62701");

    await form.getByRole("button", { name: /Recurring charges/ }).click();
    await form.getByRole("button", { name: "Add recurring charge" }).click();
    const charge = form.getByRole("group", { name: "Recurring charge 1" });
    // Room below the picker for its list of codes.
    await charge.evaluate((element) => element.scrollIntoView({ block: "center" }));
    await pickCode(page, charge, "100");
    // Choosing a code offers its description.
    expect(await charge.getByLabel("Description").inputValue()).toBe("Weekly lawn service");
    await charge.getByLabel("Rate").fill("45.50");
    await charge.getByLabel("Quantity").fill("2");
    expect(await charge.getByTestId("live-amount").textContent()).toBe("$91.00");
    await charge.getByLabel("Start month").click();
    await page.getByRole("option", { name: "April" }).click();
    await charge.getByLabel("End month").click();
    await page.getByRole("option", { name: "October" }).click();

    await form.getByRole("button", { name: /Stored amounts/ }).click();
    await form.getByRole("button", { name: "Add stored amount" }).click();
    const stored = form.getByRole("group", { name: "Stored amount 1" });
    await stored.evaluate((element) => element.scrollIntoView({ block: "center" }));
    await pickCode(page, stored, "120");
    await stored.getByLabel("Rate").fill("3.333");
    await stored.getByLabel("Quantity").fill("3");
    expect(await stored.getByTestId("live-amount").textContent()).toBe("$10.00");

    await form.getByRole("button", { name: /Groups/ }).click();
    await form.getByLabel("Add to groups").click();
    await page.getByRole("option", { name: "South route" }).click();
    // The groups list stays open for more picks; close it as a person would before saving.
    await page.keyboard.press("Escape");
    await form.getByRole("button", { name: "Save", exact: true }).click();
    // Save on the standalone page returns to the list.
    await page.waitForURL((url) => url.pathname === "/customers/manage");

    const { api } = world.current();
    const customer = await findCustomer(api, "Petrov");
    const charges = await api.request<{ results: Record<string, unknown>[] }>(
      "GET",
      `autoamounts/?customer__id=${customer.id}`,
    );
    expect(charges.results).toHaveLength(1);
    expect(charges.results[0]).toMatchObject({
      description: "Weekly lawn service",
      auto_amount: "91.00",
      start_month: 4,
      end_month: 10,
      frequency: "monthly",
      finance_type: "Advance",
    });
    const amounts = await api.request<{ results: Record<string, unknown>[] }>(
      "GET",
      `storedamounts/?customer__id=${customer.id}`,
    );
    expect(amounts.results).toHaveLength(1);
    expect(amounts.results[0]).toMatchObject({ description: "Materials", storedAmount: "10.00" });
    const plans = await api.request<{ results: { route_name: string }[] }>(
      "GET",
      `routeplans/?customer__id=${customer.id}`,
    );
    expect(plans.results.map((plan) => plan.route_name)).toEqual(["South route"]);
    expect(uncaught(pageErrors)).toEqual([]);
  });
});
