import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { postEntry, type ApiSession } from "../support/api.js";
import { makeLedgerWorld, type LedgerWorld } from "../support/ledger-world.js";
import { useAdminBrowser } from "../support/admin-browser.js";

const ADMIN_EMAIL = "ledger-admin@example.test";
const ADMIN_PASSWORD = "ledger-Admin-Password-1";

type TransactionRow = {
  id: number;
  description: string;
  amount: string;
  invoice: number | null;
  serviceDate: string;
};

describe("transaction search and entry", () => {
  const session = useAdminBrowser(ADMIN_EMAIL, ADMIN_PASSWORD);
  let admin: ApiSession;
  let page: Page;
  beforeEach(() => {
    ({ admin, page } = session.current());
  });

  type World = LedgerWorld;
  const makeWorld = (name: string): Promise<World> => makeLedgerWorld(admin, name);

  const ledger = (world: World) =>
    admin.request<{ count: number; results: TransactionRow[] }>(
      "GET",
      `transactions/?client_id=${world.client.id}&limit=100`,
    );

  const table = () => page.getByRole("table", { name: "Transactions" });
  const addRow = () => table().getByRole("row", { name: "Add Transaction" });

  async function openSearch(world: World, query = "") {
    await page.goto(`/transactions?client_id=${world.client.id}${query}`);
    await page.getByRole("heading", { level: 1, name: "Search Transactions" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/transactions/search");
  }

  async function pick(label: string, text: string, option: RegExp) {
    const input = page.getByRole("textbox", { name: label });
    await input.click();
    await input.fill(text);
    await page.getByRole("option", { name: option }).click();
  }

  test("add row: stored-amount autofill, locks kept by Save & New, Done reports the running count and total", async () => {
    const world = await makeWorld("Ledger Add Client");
    await admin.request("POST", `storedamounts/?client_id=${world.client.id}`, {
      customer: world.alice.id,
      storedCode: world.mowing.id,
      description: "Weekly mowing, front and back",
      rate: "35.50",
      quantity: 2,
      unitofmeasure: 1,
    });
    await openSearch(world);
    await table().getByText("No transactions match these filters.").waitFor();
    await page.getByRole("tab", { name: "Search Transactions", selected: true }).waitFor();

    await page.getByRole("button", { name: "Add Transaction" }).click();
    await page.getByRole("switch", { name: "Show Qty and Units" }).check();
    await pick("New transaction customer", "Alice", /Alice Arbor/);
    await pick("New transaction code", "101", /101 · Lawn mowing/);
    // The customer's stored amount fills description, rate and quantity.
    const description = page.getByRole("textbox", { name: "New transaction description" });
    await expect.poll(() => description.inputValue()).toBe("Weekly mowing, front and back");
    expect(await page.getByRole("textbox", { name: "New transaction rate" }).inputValue()).toBe("35.50");
    expect(await page.getByRole("textbox", { name: "New transaction quantity" }).inputValue()).toBe("2");
    expect(await addRow().getByLabel("New transaction amount").textContent()).toBe("$71.00");

    // Lock code and date; Save & New keeps them and the customer, and clears the rest.
    await page.getByRole("button", { name: "Lock Code" }).click();
    await page.getByRole("textbox", { name: "New transaction service date" }).fill("2026-03-02");
    await page.getByRole("button", { name: "Lock Date" }).click();
    await page.screenshot({ path: "/tmp/web6-add-row.png", fullPage: true });
    await page.getByRole("button", { name: "Save & New" }).click();
    // The running tally, not the row's own input, says the save went through.
    await page.getByText("Added this session: 1 · Charges $71.00").waitFor();
    await table().getByRole("cell", { name: "Weekly mowing, front and back" }).waitFor();
    // The customer stays too (issue 41): the next line is often for the same customer.
    expect(await page.getByRole("textbox", { name: "New transaction customer" }).inputValue()).toMatch(
      /Alice Arbor/,
    );
    expect(await page.getByRole("textbox", { name: "New transaction code" }).inputValue()).toBe(
      "101 · Lawn mowing",
    );
    expect(await page.getByRole("textbox", { name: "New transaction service date" }).inputValue()).toBe(
      "2026-03-02",
    );
    expect(await description.inputValue()).toBe("");

    // Bob has no stored amount: the code's description and a typed rate; Ctrl+Enter is Save & New.
    await pick("New transaction customer", "Bob", /Bob Birch/);
    await page.getByRole("textbox", { name: "New transaction rate" }).fill("12.25");
    await page.getByRole("textbox", { name: "New transaction rate" }).press("Control+Enter");
    await table().getByRole("cell", { name: "$12.25" }).first().waitFor();
    await page.getByText("Added this session: 2 · Charges $83.25").waitFor();

    await page.getByRole("button", { name: "Done" }).click();
    await page.getByText("2 transactions were created with a total amount of $83.25 (").waitFor();
    expect(await addRow().count()).toBe(0);
    await page
      .getByLabel("Totals")
      .getByText(/2 transactions · Charges \$83\.25 · Payments and credits \$0\.00 · Net \$83\.25/)
      .waitFor();

    const saved = (await ledger(world)).results;
    expect(saved.map((row) => [row.description, row.amount, row.serviceDate.slice(0, 10)]).sort()).toEqual([
      ["Lawn mowing", "12.25", "2026-03-02"],
      ["Weekly mowing, front and back", "71.00", "2026-03-02"],
    ]);
    await page.screenshot({ path: "/tmp/web6-search.png", fullPage: true });
  });

  test("the duplicate modal: No dismisses, Yes saves again with force; row edit with Ctrl+Enter and cancel", async () => {
    const world = await makeWorld("Ledger Duplicate Client");
    await world.post(world.bob, world.mowing.id, "First cut", "20.00");
    await openSearch(world, `&customer_id=${world.bob.id}`);
    // customer_id in the address prefills the customer filter.
    await expect
      .poll(() => page.getByRole("textbox", { name: "Filter by customer" }).inputValue())
      .toMatch(/Bob Birch/);
    await table().getByRole("cell", { name: "First cut" }).waitFor();

    await page.getByRole("button", { name: "Add Transaction" }).click();
    await pick("New transaction customer", "Bob", /Bob Birch/);
    await pick("New transaction code", "101", /101 · Lawn mowing/);
    await page.getByRole("textbox", { name: "New transaction description" }).fill("Second cut");
    await page.getByRole("textbox", { name: "New transaction service date" }).fill("2026-04-01");
    await page.getByRole("textbox", { name: "New transaction rate" }).fill("20");
    await page.getByRole("button", { name: "Save & New" }).click();
    const modal = page.getByRole("dialog", { name: "Duplicate Transaction Detected" });
    await modal.waitFor();
    await page.screenshot({ path: "/tmp/web6-duplicate.png" });
    await modal.getByRole("button", { name: "No" }).click();
    await modal.waitFor({ state: "detached" });
    expect((await ledger(world)).count).toBe(1);
    // The row keeps what was typed.
    expect(await page.getByRole("textbox", { name: "New transaction description" }).inputValue()).toBe(
      "Second cut",
    );

    await page.getByRole("button", { name: "Save & New" }).click();
    await modal.waitFor();
    await modal.getByRole("button", { name: "Yes" }).click();
    await table().getByRole("cell", { name: "Second cut" }).waitFor();
    expect((await ledger(world)).count).toBe(2);
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByText("1 transaction was created with a total amount of $20.00 (").waitFor();

    // In-place edit: cancel discards, Ctrl+Enter saves.
    const row = table().getByRole("row").filter({ hasText: "First cut" });
    await row.getByRole("button", { name: "Edit" }).click();
    await table().getByRole("textbox", { name: "Description" }).fill("Thrown away");
    await table().getByRole("button", { name: "Cancel" }).click();
    await row.getByRole("cell", { name: "First cut" }).waitFor();
    await row.getByRole("button", { name: "Edit" }).click();
    await table().getByRole("textbox", { name: "Rate" }).fill("22.50");
    await table().getByRole("textbox", { name: "Description" }).fill("First cut, edged");
    await table().getByRole("textbox", { name: "Description" }).press("Control+Enter");
    const edited = table().getByRole("row").filter({ hasText: "First cut, edged" });
    await edited.getByRole("cell", { name: "$22.50" }).first().waitFor();

    // Delete asks first.
    await edited.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: "Delete" }).getByRole("button", { name: "Delete" }).click();
    await edited.waitFor({ state: "detached" });
    expect((await ledger(world)).results.map((entry) => entry.description)).toEqual(["Second cut"]);
  });

  test("mass update changes the selected rows, then Make Invoice from Selected opens the invoice", async () => {
    const world = await makeWorld("Ledger Mass Client");
    for (const [description, rate] of [
      ["Mow one", "10.00"],
      ["Mow two", "11.00"],
      ["Mow three", "12.00"],
    ] as const) {
      await postEntry(admin, world.client.id, {
        customer: world.alice.id,
        code: world.mowing.id,
        description,
        rate,
        serviceDate: "2026-05-01",
      });
    }
    await openSearch(world);
    await table().getByRole("cell", { name: "Mow three" }).waitFor();
    await page.getByRole("button", { name: "Mass Edit" }).click();
    await page.getByRole("heading", { name: "Change a field for 0 selected transactions" }).waitFor();
    const select = (description: string) =>
      table().getByRole("row").filter({ hasText: description }).getByRole("checkbox").check();
    await select("Mow one");
    await select("Mow two");
    await page.getByRole("heading", { name: "Change a field for 2 selected transactions" }).waitFor();
    await page.getByRole("textbox", { name: "New service date" }).fill("2026-05-15");
    await page.getByRole("textbox", { name: "New rate" }).fill("15");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await page.getByText("2 transactions updated. The selection was cleared.").waitFor();
    await table()
      .getByRole("row")
      .filter({ hasText: "Mow one" })
      .getByRole("cell", { name: "May 15, 2026" })
      .waitFor();
    await page.screenshot({ path: "/tmp/web6-mass-update.png", fullPage: true });

    // Saving cleared the selection (issue 41): the invoice takes only what is ticked again.
    await page.getByRole("heading", { name: "Change a field for 0 selected transactions" }).waitFor();
    await select("Mow one");
    await select("Mow two");
    await page.getByRole("button", { name: "Make Invoice from Selected" }).click();
    await page.getByRole("heading", { level: 1, name: /^Invoice \d+$/ }).waitFor();
    expect(page.url()).toMatch(/\/transactions\/invoice\/edit\/\d+/);
    await page
      .getByRole("table", { name: "Invoice transactions" })
      .getByRole("cell", { name: "Mow two" })
      .waitFor();
    const invoiceId = Number(/edit\/(\d+)/.exec(page.url())?.[1]);
    const rows = (await ledger(world)).results;
    expect(
      rows
        .filter((row) => row.invoice === invoiceId)
        .map((row) => row.description)
        .sort(),
    ).toEqual(["Mow one", "Mow two"]);
    expect(rows.find((row) => row.description === "Mow three")?.invoice).toBeNull();

    // Back on search the mode is gone (leaving the route exits mass update) and the row links to its invoice.
    await page.keyboard.press("Escape");
    await page.getByRole("heading", { level: 1, name: "Search Transactions" }).waitFor();
    await page.getByRole("button", { name: "Mass Edit" }).waitFor();
    expect(await page.getByRole("heading", { name: /Change a field for/ }).count()).toBe(0);
    await table()
      .getByRole("row")
      .filter({ hasText: "Mow one" })
      .getByRole("link", { name: /Invoice/ })
      .waitFor();
  });

  test("paging: 50 rows a page, the next page fetched ahead, the go-to-page box", async () => {
    const world = await makeWorld("Ledger Paging Client");
    for (let day = 1; day <= 55; day += 1) {
      await postEntry(admin, world.client.id, {
        customer: world.alice.id,
        code: world.payment.id,
        description: `Payment ${day}`,
        rate: "1.00",
        serviceDate: `2026-01-${String(Math.min(day, 28)).padStart(2, "0")}`,
        force: true,
      });
    }
    const pageTwo = page.waitForRequest(
      (request) => request.url().includes("/api/transactions/?") && request.url().includes("offset=50"),
    );
    await openSearch(world, "&transaction_code_type=payment");
    await pageTwo;
    await page.getByText("1–50 of 55 transactions").waitFor();
    expect(await table().locator("tbody tr").count()).toBe(50);
    await page.getByRole("textbox", { name: "Go to page" }).fill("3");
    await page.getByRole("button", { name: "Go" }).click();
    await page.getByText("Please enter a valid page number").waitFor();
    await page.getByRole("textbox", { name: "Go to page" }).fill("2");
    await page.getByRole("button", { name: "Go" }).click();
    await page.getByText("51–55 of 55 transactions").waitFor();
    expect(await table().locator("tbody tr").count()).toBe(5);

    // Entries posted elsewhere show after a forced refresh.
    await admin.request("POST", `transactions/?client_id=${world.client.id}`, {
      customer: world.bob.id,
      code: world.payment.id,
      description: "Payment from elsewhere",
      rate: "2.00",
      serviceDate: "2026-01-01",
    });
    await page.getByRole("button", { name: "Refresh transactions" }).click();
    await page.getByText("51–56 of 56 transactions").waitFor();
  });
});
