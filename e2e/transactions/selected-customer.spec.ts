import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { createInvoice, postEntry, type ApiSession } from "../support/api.js";
import { makeLedgerWorld } from "../support/ledger-world.js";
import { useAdminBrowser } from "../support/admin-browser.js";

const ADMIN_EMAIL = "selected-admin@example.test";
const ADMIN_PASSWORD = "selected-Admin-Password-1";

// Issue 11, screens 1 and 3: the top bar's Customer select drives the screens; amounts and totals
// show their effect on the balance.
describe("the customer kept selected across screens, and signed amounts", () => {
  const session = useAdminBrowser(ADMIN_EMAIL, ADMIN_PASSWORD);
  let admin: ApiSession;
  let page: Page;
  beforeEach(() => {
    ({ admin, page } = session.current());
  });

  const makeWorld = (name: string) => makeLedgerWorld(admin, name);

  const table = () => page.getByRole("table", { name: "Transactions" });
  const topBar = () => page.getByRole("textbox", { name: "Customer Select" });

  async function selectInTopBar(text: string, option: RegExp) {
    await topBar().click();
    await topBar().fill(text);
    await page.getByRole("option", { name: option }).click();
  }

  test("the selected customer filters search, pre-fills the add row, picks Invoices & Statements; opening a customer selects it", async () => {
    const world = await makeWorld("Selected Customer Client");
    await world.post(world.alice, world.mowing.id, "Alice's cut", "30");
    await world.post(world.bob, world.mowing.id, "Bob's cut", "40");

    await page.goto(`/transactions/search?client_id=${world.client.id}`);
    await table().getByRole("cell", { name: "Bob's cut" }).waitFor();
    await selectInTopBar("Alice", /Alice Arbor/);
    // The list narrows to Alice, and her name fills the filter.
    await table().getByRole("cell", { name: "Bob's cut" }).waitFor({ state: "detached" });
    await table().getByRole("cell", { name: "Alice's cut" }).waitFor();
    await expect
      .poll(() => page.getByRole("textbox", { name: "Filter by customer" }).inputValue())
      .toMatch(/Alice Arbor/);
    await page.getByRole("button", { name: "Add Transaction" }).click();
    expect(await page.getByRole("textbox", { name: "New transaction customer" }).inputValue()).toMatch(
      /Alice Arbor/,
    );
    await page.screenshot({ path: "/tmp/screens-selected-search.png", fullPage: true });
    await page.getByRole("button", { name: "Done" }).click();

    // Invoices & Statements picks the selected customer and searches at once.
    await page.getByRole("link", { name: "Invoices & Statements" }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("customer_id")).toBe(String(world.alice.id));
    await expect
      .poll(() => page.getByRole("textbox", { name: "Customer", exact: true }).inputValue())
      .toMatch(/Alice Arbor/);
    await page.screenshot({ path: "/tmp/screens-selected-invoices.png", fullPage: true });

    // Clearing it clears the screens' customer.
    // Mantine hides the clear button from the accessibility tree (it is mouse-only), so by its label.
    await page.locator('[aria-label="Clear Customer Select"]').click();
    await expect.poll(() => new URL(page.url()).searchParams.get("customer_id")).toBeNull();
    await page.getByRole("link", { name: "Transactions", exact: true }).click();
    await table().getByRole("cell", { name: "Bob's cut" }).waitFor();
    await table().getByRole("cell", { name: "Alice's cut" }).waitFor();
    expect(await page.getByRole("textbox", { name: "Filter by customer" }).inputValue()).toBe("");

    // Opening a customer's editor selects that customer.
    await page.goto(`/customers/edit/${world.bob.id}?client_id=${world.client.id}`);
    await expect.poll(() => topBar().inputValue()).toMatch(/Bob Birch/);
    await page.goto(`/transactions/search?client_id=${world.client.id}`);
    await table().getByRole("cell", { name: "Bob's cut" }).waitFor();
    expect(await table().getByRole("cell", { name: "Alice's cut" }).count()).toBe(0);
  });

  test("payments show as negative amounts; totals and the Done message split charges, credits and net", async () => {
    const world = await makeWorld("Signed Amounts Client");
    await world.post(world.alice, world.mowing.id, "Spring cut", "87.50");
    await world.post(world.alice, world.payment.id, "Check 1001", "20");

    await page.goto(`/transactions/search?client_id=${world.client.id}&customer_id=${world.alice.id}`);
    const paymentRow = table().getByRole("row").filter({ hasText: "Check 1001" });
    await paymentRow.getByRole("cell", { name: "-$20.00" }).waitFor();
    await table()
      .getByRole("row")
      .filter({ hasText: "Spring cut" })
      .getByRole("cell", { name: "$87.50" })
      .last()
      .waitFor();
    await page
      .getByLabel("Totals")
      .getByText("2 transactions · Charges $87.50 · Payments and credits -$20.00 · Net $67.50")
      .waitFor();

    // Two more by the add row: a $45 charge and a $20 payment.
    await page.getByRole("button", { name: "Add Transaction" }).click();
    const pick = async (label: string, text: string, option: RegExp) => {
      const input = page.getByRole("textbox", { name: label });
      await input.click();
      await input.fill(text);
      await page.getByRole("option", { name: option }).click();
    };
    await pick("New transaction customer", "Alice", /Alice Arbor/);
    await pick("New transaction code", "101", /101 · Lawn mowing/);
    await page.getByRole("textbox", { name: "New transaction rate" }).fill("45");
    await page.getByRole("button", { name: "Save & New" }).click();
    await page.getByText("Added this session: 1 · Charges $45.00").waitFor();
    await pick("New transaction customer", "Alice", /Alice Arbor/);
    await pick("New transaction code", "900", /900 · Check payment/);
    await page.getByRole("textbox", { name: "New transaction rate" }).fill("20");
    expect(await page.getByLabel("New transaction amount").textContent()).toBe("-$20.00");
    await page.getByRole("button", { name: "Save & New" }).click();
    await page
      .getByText(/Added this session: 2 · Charges \$45\.00 · Payments and credits -\$20\.00/)
      .waitFor();
    await page.getByRole("button", { name: "Done" }).click();
    await page
      .getByText(
        "2 transactions were created with a total amount of $25.00 (Charges $45.00 · Payments and credits -$20.00 · Net $25.00).",
      )
      .waitFor();
    await page.screenshot({ path: "/tmp/screens-signed-amounts.png", fullPage: true });
  });

  test("Mass Edit: entries that cannot change cannot be ticked, and Make Invoice from Selected says why it is off", async () => {
    const world = await makeWorld("Mass Edit Client");
    const invoice = (date: string) => createInvoice(admin, world.client.id, world.alice.id, date);
    const open = await invoice("2026-04-01");
    const closed = await invoice("2026-04-02");
    const post = (description: string, rate: string, invoiceId?: number) =>
      postEntry(admin, world.client.id, {
        customer: world.alice.id,
        code: world.mowing.id,
        description,
        rate,
        serviceDate: "2026-04-01",
        ...(invoiceId === undefined ? {} : { invoice: invoiceId }),
      });
    const free = await post("Free cut", "10");
    const onOpen = await post("Cut on the open invoice", "11", open.id);
    const onClosed = await post("Cut on the closed invoice", "12", closed.id);
    await admin.request("POST", `invoices/${closed.id}/close/?client_id=${world.client.id}`);

    await page.goto(`/transactions/search?client_id=${world.client.id}`);
    await table().getByRole("cell", { name: "Cut on the closed invoice" }).waitFor();
    await page.getByRole("button", { name: "Mass Edit" }).click();
    const box = (id: number) => page.getByRole("checkbox", { name: `Select transaction ${id}` });
    expect(await box(onClosed.id).isDisabled()).toBe(true);
    expect(await box(onClosed.id).getAttribute("aria-description")).toMatch(/no longer open/);

    const makeInvoice = page.getByRole("button", { name: "Make Invoice from Selected" });
    await box(free.id).check();
    await box(onOpen.id).check();
    expect(await makeInvoice.isDisabled()).toBe(true);
    await page
      .getByText(
        `1 of the selected transactions is already on invoice ${open.invoice_num}; unselect it to make an invoice.`,
      )
      .waitFor();
    await page.screenshot({ path: "/tmp/screens-mass-edit.png", fullPage: true });
    // Select all takes only what can change.
    await box(onOpen.id).uncheck();
    expect(await makeInvoice.isDisabled()).toBe(false);
    await makeInvoice.click();
    await page.waitForURL(/\/transactions\/invoice\/edit\/\d+/);
    await page
      .getByRole("table", { name: "Invoice transactions" })
      .getByRole("cell", { name: "Free cut" })
      .waitFor();
  });
});
