import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { axeViolations, formatViolations } from "../support/axe.js";
import { fillCardFields, makePayClient, usePaymentWorld } from "./payment-world.js";

// Staff payments from a customer: the payment buttons and Autopay only where the client has a
// gateway key, storing a card ($0.00 AUTH), taking a payment with it, declines in the Payments tab,
// and removing the stored card.

const ADMIN_EMAIL = "staff-pay-admin@example.test";
const ADMIN_PASSWORD = "staff-pay-Admin-Password-1";

describe("staff payments", () => {
  const world = usePaymentWorld(ADMIN_EMAIL, ADMIN_PASSWORD);

  async function openEditor(page: Page, clientId: number, customerId: number, tab?: string) {
    await page.goto(`/customers/edit/${customerId}?client_id=${clientId}${tab ? `&tab=${tab}` : ""}`);
    await page.getByRole("heading", { level: 1, name: "Edit Customer" }).waitFor();
  }

  test("payment buttons and Autopay only for a client with a key; Add Customer offers no Autopay", async () => {
    const { admin } = world.current();
    const page = await world.openPage();
    const keyless = await makePayClient(admin, "Keyless Client", { withKey: false });
    const plain = await keyless.customer("Kim", "Keyless");
    await openEditor(page, keyless.client.id, plain.id);
    await page.getByRole("button", { name: "Save Customer" }).waitFor();
    expect(await page.getByRole("link", { name: "Take payment" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Store card/ACH" }).count()).toBe(0);
    expect(await page.getByLabel("Autopay").count()).toBe(0);

    const keyed = await makePayClient(admin, "Keyed Client");
    const ready = await keyed.customer("Kit", "Keyed");
    await openEditor(page, keyed.client.id, ready.id);
    await page.getByRole("link", { name: "Take payment" }).waitFor();
    await page.getByRole("link", { name: "Store card/ACH" }).waitFor();
    // No stored method yet: the server would refuse autopay, so the switch waits for one.
    expect(await page.getByLabel("Autopay").isDisabled()).toBe(true);
    await page.getByText("Store a card or bank account first (Payments tab)").waitFor();

    await page.goto(`/customers/manage?mode=add&client_id=${keyed.client.id}`);
    await page.getByRole("form", { name: "Add Customer" }).waitFor();
    expect(await page.getByLabel("Autopay").count()).toBe(0);
  });

  test("store a card, take a payment with it, see the decline in the Payments tab, remove the card", async () => {
    const { admin, sandbox } = world.current();
    const page = await world.openPage();
    const shop = await makePayClient(admin, "Card Shop Client");
    const sam = await shop.customer("Sam", "Stored");
    await shop.charge(sam, "25.00");

    await openEditor(page, shop.client.id, sam.id);
    await page.getByRole("link", { name: "Store card/ACH" }).click();
    await page.getByRole("form", { name: "Store a payment method" }).waitFor();
    expect(new URL(page.url()).searchParams.get("recordPayment")).toBe("true");
    expect(await page.getByLabel(/^Amount/).count()).toBe(0);
    await fillCardFields(page);
    await page.getByRole("button", { name: "Store card" }).click();
    await page.getByText("Payment method stored").first().waitFor();
    // Back on the customer's Payments tab: the card on file (a mask, never the number).
    await page.waitForURL((url) => url.pathname === `/customers/edit/${sam.id}`);
    await page
      .getByTestId("stored-method")
      .getByText(/ending 1111/)
      .waitFor();
    const auth = sandbox.transactions().find((entry) => entry.transType === "AUTH");
    expect(auth?.amount).toBe("0.00");

    await page.getByRole("link", { name: "Take payment" }).click();
    const form = page.getByRole("form", { name: "Payment" });
    await form.waitFor();
    // Stored info and recordPayment=false: the saved method, the balance as the amount.
    await form.getByText(/Pay with the saved method/).waitFor();
    expect(await form.getByLabel(/^Amount/).inputValue()).toBe("25.00");
    await form.getByLabel(/^Amount/).fill("24.00");
    await form.getByRole("button", { name: /^Pay / }).click();
    await page.getByRole("alert").filter({ hasText: "The payment was not approved" }).waitFor();
    await expect
      .poll(() => form.getByRole("button", { name: /^Pay / }).isEnabled(), { timeout: 10_000 })
      .toBe(true);
    await form.getByLabel(/^Amount/).fill("25.00");
    await form.getByRole("button", { name: /^Pay / }).click();
    await page.getByText("Payment approved").first().waitFor();
    await page.waitForURL((url) => url.pathname === `/customers/edit/${sam.id}`);
    expect(await shop.balance(sam)).toBe("0.00");

    const attempts = page.getByRole("table", { name: "Payment attempts" });
    // The list refetches after the approval: wait for the third attempt before reading the rows.
    await attempts.getByRole("row").filter({ hasText: "$24.00" }).waitFor();
    await attempts.locator('tbody tr[data-status="approved"]').nth(1).waitFor();
    const statuses = await attempts
      .locator("tbody tr")
      .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-status")));
    expect(statuses).toEqual(["approved", "declined", "approved"]);
    await attempts
      .getByRole("row")
      .filter({ hasText: "$24.00" })
      .getByText("declined", { exact: true })
      .waitFor();
    expect(formatViolations(await axeViolations(page))).toBe("");

    // Autopay can be switched on now that a method is stored.
    await page.getByRole("tab", { name: "Customer Details" }).click();
    expect(await page.getByLabel("Autopay").isEnabled()).toBe(true);

    await page.getByRole("tab", { name: "Payments" }).click();
    await page.getByRole("button", { name: "Remove" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove the stored payment method?" });
    await dialog.getByRole("button", { name: "Remove" }).click();
    await page.getByTestId("stored-method").getByText("None on file.").waitFor();
  });
});
