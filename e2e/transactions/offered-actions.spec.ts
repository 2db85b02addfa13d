import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { createInvoice, postEntry } from "../support/api.js";
import { useBrowserWorld } from "../support/browser-world.js";
import { makePayClient, payByCard, usePaymentWorld } from "../payments/payment-world.js";

// Issue 31 point 2: the screens offer only the actions the server takes (the records' `actions`).

const ADMIN_EMAIL = "offered-actions-admin@example.test";
const ADMIN_PASSWORD = "offered-Actions-Admin-Password-1";

type LedgerRow = { id: number; description: string; gateway_trans_id: string | null; ledger_amount: string };

describe("offered actions on transactions and invoices", () => {
  const world = usePaymentWorld(ADMIN_EMAIL, ADMIN_PASSWORD);

  test("a card reversal refunded through the gateway offers no Delete Reversal; a charge reversal does", async () => {
    const { admin } = world.current();
    const pay = await makePayClient(admin, "Offered Actions Client");
    const clientId = pay.client.id;
    const olive = await pay.customer("Olive", "Offered");
    const closing = await createInvoice(admin, clientId, olive.id);
    const charge = await postEntry(admin, clientId, {
      customer: olive.id,
      code: pay.chargeCode,
      description: "Reversed mowing",
      rate: "40.00",
      invoice: closing.id,
    });
    await admin.request("POST", `invoices/${closing.id}/close/?client_id=${clientId}`);
    await admin.request("POST", `transactions/${charge.id}/reversal/?client_id=${clientId}`);
    // A card payment through the sandbox (an odd dollar amount approves), then its reversal: a refund.
    const paid = await payByCard(admin, clientId, olive.id, "7.00");
    expect(paid.approved).toBe(true);
    const ledger = async () =>
      (await admin.request<{ results: LedgerRow[] }>("GET", `transactions/?client_id=${clientId}&limit=100`))
        .results;
    const card = (await ledger()).find(
      (row) => row.gateway_trans_id !== null && row.ledger_amount === "-7.00",
    );
    if (!card) throw new Error("the card payment was not recorded");
    await admin.request("POST", `transactions/${card.id}/reversal/?client_id=${clientId}`);
    const reversals = (await ledger()).filter((row) => row.description.startsWith("REVERSAL: "));
    expect(reversals).toHaveLength(2);

    const page: Page = await world.openPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/transactions/search?client_id=${clientId}`);
    const table = page.getByRole("table", { name: "Transactions" });
    const rowOf = (description: string) => table.locator("tbody tr").filter({ hasText: description });
    const chargeReversal = rowOf("REVERSAL: Reversed mowing");
    await chargeReversal.getByRole("button", { name: "Delete Reversal" }).waitFor();
    const cardReversal = reversals.find((row) => row.gateway_trans_id !== null)!;
    const cardRow = rowOf(cardReversal.description);
    await cardRow.first().waitFor();
    expect(await cardRow.getByRole("button", { name: "Delete Reversal" }).count()).toBe(0);
    await page.screenshot({ path: "/tmp/offered-actions-transactions.png" });

    // The open invoice offers no PDF (the spec: only once it is not open); closed, it does.
    const open = await createInvoice(admin, clientId, olive.id);
    await page.goto(`/transactions/invoice/edit/${open.id}?client_id=${clientId}`);
    await page.getByRole("button", { name: "Close Invoice" }).waitFor();
    expect(await page.getByRole("button", { name: "Get PDF" }).count()).toBe(0);
    await page.screenshot({ path: "/tmp/offered-actions-open-invoice.png" });
    await page.goto(`/transactions/invoice/edit/${closing.id}?client_id=${clientId}`);
    await page.getByRole("button", { name: "Get PDF" }).waitFor();
    await page.getByRole("button", { name: "Delete Invoice" }).waitFor();
  });
});

type ApiInvoice = { id: number; invoice_num: number; invoice_status: string; customer_id: number };

describe("a Sent invoice offers no Delete", () => {
  const ownerWorld = useBrowserWorld({
    demo: true,
    api: "owner@greenway.example",
    signIn: "owner@greenway.example",
    failOnUncaught: true,
  });

  test("neither on the Edit Invoice page nor in Invoices & Statements", async () => {
    const { api, page } = ownerWorld.current();
    const invoices = (await api.request<{ results: ApiInvoice[] }>("GET", "invoices/?limit=200")).results;
    const sent = invoices.find((invoice) => invoice.invoice_status === "processed");
    if (!sent) throw new Error("the demo has no sent invoice");
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.goto(`/transactions/invoice/edit/${sent.id}`);
    await page.getByRole("button", { name: "Get PDF" }).waitFor();
    expect(await page.getByRole("button", { name: "Delete Invoice" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Open Invoice" }).count()).toBe(0);

    await page.goto(`/invoicesAndStatements?customer_id=${sent.customer_id}`);
    const view = page.getByRole("link", { name: `View invoice ${sent.invoice_num}`, exact: true });
    await view.first().waitFor();
    const row = page.locator("tbody tr").filter({ has: view });
    expect(await row.getByRole("button", { name: `Delete invoice ${sent.invoice_num}` }).count()).toBe(0);
    await page.screenshot({ path: "/tmp/offered-actions-documents.png" });
  });
});
