import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { uncaught } from "../support/auth.js";
import { useBrowserWorld } from "../support/browser-world.js";

// Issue 39: the History tab and the Audit screen, as the demo's Greenway owner reads them after a
// change of their own; staff do not see the trail.

type Customer = { id: number; customer_no: number; customer_name: string; city: string };

/** The fields a customer's PUT needs, from its record. */
function pick(record: Record<string, unknown>): Record<string, unknown> {
  const fields = ["first_name", "last_name", "company_name", "address1", "city", "state", "zip", "email"];
  return Object.fromEntries(fields.map((field) => [field, record[field]]));
}

describe("the audit trail in the browser", () => {
  const world = useBrowserWorld({
    demo: true,
    api: "owner@greenway.example",
    signIn: "owner@greenway.example",
  });

  async function someCustomer(): Promise<Customer> {
    const page = await world
      .current()
      .api.request<{ results: Customer[] }>("GET", "customers/?limit=1&ordering=customer_no");
    const customer = page.results[0];
    if (!customer) throw new Error("the demo has no customer");
    return customer;
  }

  test("a customer's History tab shows the owner's change, field by field", async () => {
    const { page, pageErrors } = world.current();
    const customer = await someCustomer();
    await page.goto(`/customers/edit/${customer.id}`);
    await page.getByRole("tab", { name: "Customer Details" }).waitFor();
    const city = page.getByLabel("City", { exact: true });
    const before = await city.inputValue();
    const after = before === "Round Rock" ? "Pflugerville" : "Round Rock";
    await city.fill(after);
    await page.getByRole("button", { name: "Save Customer" }).click();
    await page.getByRole("alert").filter({ hasText: "Customer saved." }).waitFor();

    await page.getByRole("tab", { name: "History" }).click();
    const history = page.getByRole("table", { name: "History" });
    const row = history.getByRole("row").filter({ hasText: "customer.update" }).first();
    await row.waitFor();
    await row.getByText("owner@greenway.example").waitFor();
    const changes = row.getByRole("table", { name: "Changes of customer.update" });
    const cityRow = changes
      .getByRole("row")
      .filter({ has: page.getByRole("cell", { name: "city", exact: true }) });
    await expect
      .poll(() => cityRow.getByRole("cell").allInnerTexts())
      .toEqual(["city", before || "(empty)", after]);
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("the Audit screen lists, filters and downloads the client's trail", async () => {
    const { page, pageErrors, api } = world.current();
    // A change of the owner's own, made through the API (this test does not lean on the one above).
    const customer = await someCustomer();
    const record = await api.request<Record<string, unknown>>("GET", `customers/${customer.id}/`);
    await api.request("PUT", `customers/${customer.id}/`, { ...pick(record), city: "Cedar Park" });
    await page.goto("/reports");
    await page.getByRole("link", { name: "Open audit trail" }).click();
    await page.getByRole("heading", { level: 1, name: "Audit trail" }).waitFor();
    const table = page.getByRole("table", { name: "Audit trail" });
    await table.getByRole("row").nth(1).waitFor();

    await page.getByRole("combobox", { name: "Kind" }).click();
    await page.getByRole("option", { name: "Customers" }).click();
    await page.getByLabel("Who").fill("owner@greenway.example");
    // The filtered page replaces the unfiltered one once it has loaded.
    const badges = () => table.locator("tbody .mantine-Badge-label").allTextContents();
    await expect
      .poll(async () => {
        const shown = await badges();
        return shown.length > 0 && shown.every((text) => text.startsWith("customer."));
      })
      .toBe(true);
    expect(await badges()).toContain("customer.update");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-trail-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await download.path(), "utf8");
    expect(csv.split("\r\n")[0]).toBe(
      "at,client_id,seq,actor,actor_kind,address,user_agent,action,record_kind,record_id,customer_id,reason,field,before,after",
    );
    expect(csv).toContain("customer.update");
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("staff see no History tab and are told the trail is not theirs", async () => {
    const page = await world.current().openPage("staff@greenway.example");
    try {
      const customer = await someCustomer();
      await page.goto(`/customers/edit/${customer.id}`);
      await page.getByRole("tab", { name: "Customer Details" }).waitFor();
      expect(await page.getByRole("tab", { name: "History" }).count()).toBe(0);
      await page.goto("/audit");
      await page
        .getByText("The audit trail is kept for the client's owners and the provider's admins.")
        .waitFor();
    } finally {
      await page.context().close();
    }
  });
});
