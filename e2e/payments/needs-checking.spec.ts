import { describe, expect, test } from "vitest";
import { axeViolations, formatViolations } from "../support/axe.js";
import { makePayClient, payByCard, usePaymentWorld } from "./payment-world.js";

// A payment whose gateway answer was lost and that the gateway's lookup cannot show: Process CC
// lists it with what was sent and what the lookups showed, and an owner or admin records what they
// found at the gateway, with the reason, behind a dialog.

const ADMIN_EMAIL = "needs-checking-admin@example.test";
const ADMIN_PASSWORD = "needs-checking-Admin-Password-1";

describe("Payments to confirm with the gateway", () => {
  const world = usePaymentWorld(ADMIN_EMAIL, ADMIN_PASSWORD);

  test("lists an unknown payment and records 'it was not charged' with the reason", async () => {
    const { admin, sandbox } = world.current();
    const shop = await makePayClient(admin, "Lost Answer Client");
    const customer = await shop.customer("Lou", "Lost");
    await shop.charge(customer, "31.00");
    // The gateway charges, the answer is lost, and its lookup answers nothing usable.
    sandbox.setFaults({ dropRate: 1, stqFault: "unknown-shape" });
    try {
      const lost = await payByCard(admin, shop.client.id, customer.id, "31.00");
      expect(lost.approved).toBe(false);
    } finally {
      sandbox.setFaults({ dropRate: 0 });
    }

    const page = await world.openPage();
    await page.goto(`/customers/processCC?client_id=${shop.client.id}`);
    await page.getByRole("heading", { level: 1, name: "Process CC Payments" }).waitFor();
    const table = page.getByRole("table", { name: "Payments to confirm with the gateway" });
    const row = table.getByRole("row").filter({ hasText: "Lou Lost" });
    await row.waitFor();
    expect(await row.innerText()).toContain("$31.00");
    expect(await row.innerText()).toMatch(/Looked up until/);
    expect(formatViolations(await axeViolations(page))).toBe("");

    await row.getByRole("button", { name: "It was not charged" }).click();
    const dialog = page.getByRole("dialog", { name: "It was not charged" });
    const save = dialog.getByRole("button", { name: "Record as not charged" });
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByLabel("Why (what you checked at the gateway)").fill("Not in BluePay's daily report");
    await save.click();
    await table.waitFor({ state: "detached" });
    expect(await shop.balance(customer)).toBe("31.00");
    sandbox.setFaults({ stqFault: "none" });
  });
});
