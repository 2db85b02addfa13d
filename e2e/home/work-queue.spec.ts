import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { makePayClient, payByCard, usePaymentWorld } from "../payments/payment-world.js";

// Issue 41, the bureau's work queue on the provider admin's Home: a payment whose answer was lost
// and a returned ACH payment appear under their kinds with the client's name; "Check at the
// gateway" opens Process CC where a verdict clears the first, "Mark handled" with a note clears
// the second.

const ADMIN_EMAIL = "work-queue-admin@example.test";
const ADMIN_PASSWORD = "work-queue-Admin-Password-1";

async function queueSection(page: Page, name: string) {
  await page.goto("/home");
  const queue = page.getByRole("region", { name: "Today's work" });
  await queue.waitFor();
  return queue.getByRole("region", { name });
}

describe("the work queue on Home", () => {
  const world = usePaymentWorld(ADMIN_EMAIL, ADMIN_PASSWORD);

  test("shows a lost payment and a return with their actions, and each action clears its item", async () => {
    const { admin, sandbox } = world.current();
    const shop = await makePayClient(admin, "Queue Client");
    const lou = await shop.customer("Lou", "Lost");
    const ron = await shop.customer("Ron", "Returned");
    await shop.charge(lou, "31.00");
    await shop.charge(ron, "40.00");
    sandbox.setFaults({ dropRate: 1, stqFault: "unknown-shape" });
    try {
      expect((await payByCard(admin, shop.client.id, lou.id, "31.00")).approved).toBe(false);
    } finally {
      sandbox.setFaults({ dropRate: 0, stqFault: "none" });
    }
    const paid = await admin.request<{ approved: boolean }>("POST", "payments/make-payment/customer/", {
      client_id: shop.client.id,
      customer_id: ron.id,
      paymentMethod: "check",
      checkRoutingNum: "123456780",
      checkAccountNum: "55667788",
      amount: "11.00",
    });
    expect(paid.approved).toBe(true);
    const attempts = await admin.request<{ results: { gateway_trans_id: string }[] }>(
      "GET",
      `payment-attempts/?client_id=${shop.client.id}&customer_id=${ron.id}`,
    );
    await admin.request("POST", `gateway/events/?client_id=${shop.client.id}`, {
      kind: "returned",
      gateway_trans_id: "990000000441",
      original_trans_id: attempts.results[0]?.gateway_trans_id ?? "",
      code: "R01",
    });

    const page = await world.openPage();
    // The provider's Home before any client is chosen: every client's work.
    const lost = await queueSection(page, "Payments whose answer was lost");
    const lostItem = lost.getByRole("listitem").filter({ hasText: "Lou Lost" });
    await lostItem.waitFor();
    expect(await lostItem.innerText()).toContain("Queue Client");
    expect(await lostItem.innerText()).toContain("$31.00");
    const returned = page
      .getByRole("region", { name: "Today's work" })
      .getByRole("region", { name: "Returned payments and chargebacks" })
      .getByRole("listitem")
      .filter({ hasText: "Ron Returned" });
    await returned.waitFor();
    expect(await returned.innerText()).toContain("Returned (R01)");

    // A return followed up by phone: marked handled with a note, it leaves the queue.
    await returned.getByRole("button", { name: "Mark handled" }).click();
    const dialog = page.getByRole("dialog", { name: "Mark handled" });
    await dialog.getByLabel("What was done").fill("Called Ron: paying by check");
    await dialog.getByRole("button", { name: "Mark handled" }).click();
    await dialog.waitFor({ state: "detached" });
    await returned.waitFor({ state: "detached" });

    // The lost payment's action opens Process CC for its client, where the verdict is recorded.
    await lostItem.getByRole("link", { name: "Check at the gateway" }).click();
    await page.waitForURL((url) => url.pathname === "/customers/processCC");
    expect(new URL(page.url()).searchParams.get("client_id")).toBe(String(shop.client.id));
    const row = page
      .getByRole("table", { name: "Payments to confirm with the gateway" })
      .getByRole("row")
      .filter({ hasText: "Lou Lost" });
    await row.getByRole("button", { name: "It was not charged" }).click();
    const verdict = page.getByRole("dialog", { name: "It was not charged" });
    await verdict.getByLabel("Why (what you checked at the gateway)").fill("Not in BluePay's daily report");
    await verdict.getByRole("button", { name: "Record as not charged" }).click();
    await verdict.waitFor({ state: "detached" });

    await page.goto("/home");
    const queue = page.getByRole("region", { name: "Today's work" });
    await queue.waitFor();
    await expect
      .poll(async () => (await queue.innerText()).includes("Lou Lost"), { timeout: 15_000 })
      .toBe(false);
    expect(await queue.innerText()).not.toContain("Ron Returned");
  });
});
