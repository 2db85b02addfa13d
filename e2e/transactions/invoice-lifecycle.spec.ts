import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import {
  createClient,
  createCode,
  createCustomer,
  type ApiSession,
  type ClientFixture,
  type CodeFixture,
  type CustomerFixture,
} from "../support/api.js";
import { useAdminBrowser } from "../support/admin-browser.js";

const ADMIN_EMAIL = "invoice-admin@example.test";
const ADMIN_PASSWORD = "invoice-Admin-Password-1";

type LedgerRow = {
  id: number;
  description: string;
  amount: string;
  ledger_amount: string;
  invoice: number | null;
  voided: boolean;
  transaction_status: string;
  reverses_transaction: number | null;
};

describe("invoice lifecycle", () => {
  const session = useAdminBrowser(ADMIN_EMAIL, ADMIN_PASSWORD);
  let admin: ApiSession;
  let page: Page;
  beforeEach(() => {
    ({ admin, page } = session.current());
  });

  type World = { client: ClientFixture; mowing: CodeFixture; carol: CustomerFixture };

  async function makeWorld(name: string): Promise<World> {
    const client = await createClient(admin, name);
    const mowing = await createCode(admin, client.id, {
      code: 101,
      description: "Lawn mowing",
      code_type: "charge",
    });
    const carol = await createCustomer(admin, client.id, { first_name: "Carol", last_name: "Cedar" });
    return { client, mowing, carol };
  }

  const ledger = async (world: World) =>
    (
      await admin.request<{ results: LedgerRow[] }>(
        "GET",
        `transactions/?client_id=${world.client.id}&limit=100&ordering=id`,
      )
    ).results;
  const balance = async (world: World) =>
    (
      await admin.request<{ balance: string }>(
        "GET",
        `customers/${world.carol.id}/?client_id=${world.client.id}`,
      )
    ).balance;

  const table = () => page.getByRole("table", { name: "Invoice transactions" });
  const button = (name: string) => page.getByRole("button", { name, exact: true });

  async function pick(label: string, text: string, option: RegExp) {
    const input = page.getByRole("textbox", { name: label });
    await input.click();
    await input.fill(text);
    await page.getByRole("option", { name: option }).click();
  }

  async function createInvoiceInBrowser(world: World): Promise<number> {
    await page.goto(`/transactions/search?client_id=${world.client.id}`);
    await page.getByRole("tab", { name: "Create Invoice" }).click();
    await page.getByRole("heading", { level: 1, name: "Create Invoice" }).waitFor();
    // Create Invoice waits for a customer.
    expect(await button("Create Invoice").isDisabled()).toBe(true);
    await pick("Invoice customer", "Carol", /Carol Cedar/);
    await page.getByLabel("Invoice date").fill("2026-06-01");
    await button("Create Invoice").click();
    await page.getByRole("heading", { level: 1, name: /^Invoice \d+$/ }).waitFor();
    return Number(/edit\/(\d+)/.exec(page.url())?.[1]);
  }

  test("create, add lines, edit, void, close, Get PDF, reopen, reverse and delete", async () => {
    const world = await makeWorld("Invoice Lifecycle Client");
    const invoiceId = await createInvoiceInBrowser(world);
    await page.getByRole("heading", { level: 1, name: "Invoice 1" }).waitFor();
    expect(await page.getByLabel("Invoice status").textContent()).toBe("Open");
    // An open invoice starts in Add Transaction mode, with the customer fixed.
    const addRow = table().getByRole("row", { name: "Add Transaction" });
    await addRow.waitFor();
    expect(await page.getByRole("textbox", { name: "New transaction customer" }).count()).toBe(0);

    await pick("New transaction code", "101", /101 · Lawn mowing/);
    await page.getByRole("textbox", { name: "New transaction description" }).fill("Front lawn");
    await page.getByRole("textbox", { name: "New transaction rate" }).fill("40");
    await button("Save & New").click();
    // The saved row's text (not the add row's own input, whose value also names its cell), and the
    // add row emptied for the next line: only then is it safe to type into it.
    await table().getByRole("cell").filter({ hasText: "Front lawn" }).first().waitFor();
    await expect
      .poll(() => page.getByRole("textbox", { name: "New transaction description" }).inputValue())
      .toBe("");
    await pick("New transaction code", "101", /101 · Lawn mowing/);
    await page.getByRole("textbox", { name: "New transaction description" }).fill("Back lawn");
    await page.getByRole("textbox", { name: "New transaction rate" }).fill("25.5");
    await page.getByRole("textbox", { name: "New transaction rate" }).press("Control+Enter");
    await table().getByRole("cell").filter({ hasText: "Back lawn" }).first().waitFor();
    await page.getByLabel("Invoice total").getByText("Total $65.50").waitFor();
    await button("Done").click();
    await page.getByText("2 transactions were created with a total amount of $65.50 (").waitFor();
    expect((await ledger(world)).every((row) => row.invoice === invoiceId)).toBe(true);

    // Lines on an open invoice are edited in place and can be voided.
    const front = table().getByRole("row").filter({ hasText: "Front lawn" });
    await front.getByRole("button", { name: "Edit" }).click();
    await table().getByRole("textbox", { name: "Rate" }).fill("45");
    await table().getByRole("textbox", { name: "Rate" }).press("Control+Enter");
    await front.getByRole("cell", { name: "$45.00" }).first().waitFor();
    const back = table().getByRole("row").filter({ hasText: "Back lawn" });
    await back.getByRole("button", { name: "Void" }).click();
    await page.getByRole("dialog", { name: "Void" }).getByRole("button", { name: "Void" }).click();
    await back.getByText("Voided").waitFor();
    await page.getByLabel("Invoice total").getByText("Total $45.00").waitFor();
    expect(await balance(world)).toBe("45.00");

    // The date is editable while open.
    // The header's Edit comes before the rows' own.
    await button("Edit").first().click();
    await page.getByLabel("Invoice date").fill("2026-06-03");
    await button("Save").click();
    await page.getByLabel("Invoice date").getByText("Jun 3, 2026").waitFor();
    await page.screenshot({ path: "/tmp/web6-invoice-open.png", fullPage: true });

    // Closed: read-only date, Open Invoice, New Invoice, Get PDF.
    await button("Close Invoice").click();
    await page.getByLabel("Invoice status").getByText("Closed").waitFor();
    await page.getByText("Invoice 1 closed.").waitFor();
    expect(await addRow.count()).toBe(0);
    for (const name of ["Open Invoice", "New Invoice", "Get PDF"]) await button(name).waitFor();
    for (const name of ["Edit", "Add Transaction", "Separate Transactions from Invoice"])
      expect(await button(name).count()).toBe(0);
    await page.screenshot({ path: "/tmp/web6-invoice-closed.png", fullPage: true });
    const [pdf] = await Promise.all([page.waitForEvent("download"), button("Get PDF").click()]);
    expect(pdf.suggestedFilename()).toBe("Invoice 1.pdf");
    const bytes = await readFile(await pdf.path());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");

    // A closed invoice's lines are fixed by reversal.
    await front.getByRole("button", { name: "Reversal" }).click();
    await page.getByRole("dialog", { name: "Reversal" }).getByRole("button", { name: "Reversal" }).click();
    await expect
      .poll(async () => (await ledger(world)).filter((row) => row.reverses_transaction !== null).length)
      .toBe(1);
    expect(await balance(world)).toBe("0.00");

    // Reopen: Add Transaction mode again; then delete with confirmation, which goes to search.
    await button("Open Invoice").click();
    await page.getByLabel("Invoice status").getByText("Open").waitFor();
    await addRow.waitFor();
    await button("Delete Invoice").click();
    await page
      .getByRole("dialog", { name: "Delete invoice 1" })
      .getByRole("button", { name: "Delete" })
      .click();
    await page.getByRole("heading", { level: 1, name: "Search Transactions" }).waitFor();
    const after = await ledger(world);
    expect(after.every((row) => row.invoice === null)).toBe(true);
    // Balance equals the ledger throughout.
    const net = await admin.request<{ netAmount: string }>(
      "GET",
      `transactions/get_total_amount/?client_id=${world.client.id}&customer__id=${world.carol.id}`,
    );
    expect(net.netAmount).toBe(await balance(world));
  });

  test("Separate Transactions from Invoice returns them to new and goes to search", async () => {
    const world = await makeWorld("Invoice Separate Client");
    const invoiceId = await createInvoiceInBrowser(world);
    for (const rate of ["10", "20"]) {
      await admin.request("POST", `transactions/?client_id=${world.client.id}`, {
        customer: world.carol.id,
        code: world.mowing.id,
        description: `Cut ${rate}`,
        rate,
        serviceDate: "2026-06-01",
        invoice: invoiceId,
      });
    }
    await page.reload();
    await table().getByRole("cell", { name: "Cut 20" }).waitFor();
    await page.getByLabel("Invoice total").getByText("Total $30.00").waitFor();
    // Adding is closed by Close and opened again by Add Transaction.
    await button("Close").click();
    await button("Add Transaction").click();
    await table().getByRole("row", { name: "Add Transaction" }).waitFor();
    await button("Separate Transactions from Invoice").click();
    // Nothing is separated until the user confirms; then a toast says what happened.
    const confirm = page.getByRole("dialog", { name: /^Separate transactions from invoice/ });
    await confirm.getByText("They stay in the ledger and go back to new").waitFor();
    expect((await ledger(world)).every((row) => row.invoice === invoiceId)).toBe(true);
    await confirm.getByRole("button", { name: "Separate" }).click();
    await page.getByRole("heading", { level: 1, name: "Search Transactions" }).waitFor();
    await page
      .getByText(/^2 transactions were separated from invoice \d+; it stays open, empty\.$/)
      .waitFor();
    await page.getByRole("table", { name: "Transactions" }).getByRole("cell", { name: "Cut 20" }).waitFor();
    const rows = await ledger(world);
    expect(rows.map((row) => [row.invoice, row.transaction_status])).toEqual([
      [null, "new"],
      [null, "new"],
    ]);
  });
});
