import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { createClient, createCode, createCustomers, postEntry, type ApiSession } from "../support/api.js";
import { useAdminBrowser } from "../support/admin-browser.js";

const ADMIN_EMAIL = "bulk-refusals-admin@example.test";
const ADMIN_PASSWORD = "bulk-Refusals-Password-1";

type Entry = { customer: number; amount: string; description: string };

describe("Add Transactions for All Customers: customers the server will refuse", () => {
  const session = useAdminBrowser(ADMIN_EMAIL, ADMIN_PASSWORD);
  let admin: ApiSession;
  let page: Page;
  beforeEach(() => {
    ({ admin, page } = session.current());
  });

  const summary = () => page.getByText(/customers included · total/);
  const leftOut = () => page.getByRole("region", { name: "Customers who will be left out" });

  async function pickCode(label: RegExp, typed: string) {
    const code = page.getByRole("textbox", { name: "Code" });
    await code.click();
    await code.fill(typed);
    await page.getByRole("option", { name: label }).click();
  }

  test("counts only the customers who can take a charge, and names the others before saving", async () => {
    const client = await createClient(admin, "Refusals Client");
    const charge = await createCode(admin, client.id, {
      code: 305,
      description: "Trash pickup",
      code_type: "charge",
    });
    await createCode(admin, client.id, { code: 905, description: "Courtesy credit", code_type: "adjust" });
    const customers = await createCustomers(admin, client.id, [
      ["Ann", "Ash"],
      ["Ben", "Birch"],
      ["Cal", "Cedar"],
    ]);
    // Ben owes money and is marked for deletion: he stays listed, takes payments and credits, no charges.
    await postEntry(admin, client.id, {
      customer: customers.Ben!.id,
      code: charge.id,
      description: "Earlier pickup",
      rate: "5.00",
      serviceDate: "2026-03-01",
    });
    await admin.request("POST", `customers/${customers.Ben!.id}/delete-flag/?client_id=${client.id}`, {
      delete_flag: "D",
    });

    await page.goto(`/transactions/addForAllCustomers?client_id=${client.id}`);
    await page.getByRole("heading", { level: 1, name: "Add Transactions for All Customers" }).waitFor();
    await page.getByRole("textbox", { name: "Default amount" }).fill("10.00");
    await page.getByRole("textbox", { name: "Date of service" }).fill("2026-03-15");
    await page.getByText("3 of 3 customers included · total $30.00").waitFor();

    await pickCode(/305 · Trash pickup/, "305");
    await page.getByText("2 of 3 customers included · total $20.00").waitFor();
    await leftOut().waitFor();
    expect(await leftOut().innerText()).toContain(
      `1 customer will be left out: ${customers.Ben!.customer_no} Ben Birch (marked for deletion, takes no new charges)`,
    );
    await page.screenshot({ path: "/tmp/add-for-all-refusals.png", fullPage: true });

    // A credit may go to him: nobody is left out.
    await pickCode(/905 · Courtesy credit/, "905");
    await page.getByText("3 of 3 customers included · total $30.00").waitFor();
    expect(await leftOut().count()).toBe(0);

    // Back to the charge; what the server creates is what the preview counted.
    await pickCode(/305 · Trash pickup/, "305");
    await expect.poll(() => summary().innerText()).toBe("2 of 3 customers included · total $20.00");
    await page.getByRole("button", { name: "Add Transactions" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "2 bulk transactions were created: Trash pickup — all customers, total $20.00" })
      .waitFor();

    const entries = (
      await admin.request<{ results: Entry[] }>("GET", `transactions/?client_id=${client.id}&limit=100`)
    ).results.filter((entry) => entry.description === "Trash pickup");
    expect(entries.map((entry) => entry.customer).sort((a, b) => a - b)).toEqual(
      [customers.Ann!.id, customers.Cal!.id].sort((a, b) => a - b),
    );
  });
});
