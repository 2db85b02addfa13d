import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { createClient, createCode, createCustomers, type ApiSession } from "../support/api.js";
import { useAdminBrowser } from "../support/admin-browser.js";

const ADMIN_EMAIL = "bulk-admin@example.test";
const ADMIN_PASSWORD = "bulk-Admin-Password-1";

type Entry = { customer: number; amount: string; transaction_type: string; description: string };

describe("Add Transactions for All Customers", () => {
  const session = useAdminBrowser(ADMIN_EMAIL, ADMIN_PASSWORD);
  let admin: ApiSession;
  let page: Page;
  beforeEach(() => {
    ({ admin, page } = session.current());
  });

  const table = () => page.getByRole("table", { name: "Customers to bill" });
  const row = (name: string) => table().getByRole("row").filter({ hasText: name });
  const names = async () =>
    (await table().locator("tbody tr td:nth-child(3)").allTextContents()).map((text) => text.trim());

  test("lists the active customers, omits one, and posts a bulk batch to the rest", async () => {
    const client = await createClient(admin, "Bulk Client");
    await createCode(admin, client.id, { code: 205, description: "Trash pickup", code_type: "charge" });
    const customers = await createCustomers(admin, client.id, [
      ["Ann", "Ash"],
      ["Ben", "Birch"],
      ["Cal", "Cedar"],
      ["Dee", "Dogwood"],
    ]);
    // An archived customer is not listed (and not billed).
    await admin.request("DELETE", `customers/${customers.Dee!.id}/?client_id=${client.id}`);

    await page.goto(`/transactions/addForAllCustomers?client_id=${client.id}`);
    await page.getByRole("heading", { level: 1, name: "Add Transactions for All Customers" }).waitFor();
    await expect.poll(names).toEqual(["Ann Ash", "Ben Birch", "Cal Cedar"]);

    const code = page.getByRole("textbox", { name: "Code" });
    await code.click();
    await code.fill("205");
    await page.getByRole("option", { name: /205 · Trash pickup/ }).click();
    await page.getByRole("textbox", { name: "Default amount" }).fill("9.99");
    await page.getByRole("textbox", { name: "Date of service" }).fill("2026-03-15");

    await page.getByRole("textbox", { name: "Filter customers" }).fill("birch");
    await expect.poll(names).toEqual(["Ben Birch"]);
    await row("Ben Birch").getByRole("switch", { name: "Included" }).click();
    await page.getByRole("textbox", { name: "Filter customers" }).fill("");
    await page.getByText("2 of 3 customers included · total $19.98").waitFor();

    await page.getByRole("button", { name: "Add Transactions" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "2 bulk transactions were created: Trash pickup — all customers, total $19.98" })
      .waitFor();

    const entries = (
      await admin.request<{ results: (Entry & { serviceDate: string })[] }>(
        "GET",
        `transactions/?client_id=${client.id}&limit=100`,
      )
    ).results;
    expect(
      entries
        .map((entry) => ({
          customer: entry.customer,
          amount: entry.amount,
          type: entry.transaction_type,
          date: entry.serviceDate,
        }))
        .sort((a, b) => a.customer - b.customer),
    ).toEqual([
      { customer: customers.Ann!.id, amount: "9.99", type: "bulk", date: "2026-03-15" },
      { customer: customers.Cal!.id, amount: "9.99", type: "bulk", date: "2026-03-15" },
    ]);

    // The search page shows them.
    await page.getByRole("tab", { name: "Search Transactions" }).click();
    await page.getByRole("heading", { level: 1, name: "Search Transactions" }).waitFor();
    await expect.poll(() => page.getByText("Trash pickup").count()).toBeGreaterThanOrEqual(2);
  });
});
