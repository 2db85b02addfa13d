import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { makePayClient, usePaymentWorld } from "./payment-world.js";

// Issue 37 in the browser: an ACH payment the bank returns (R01) shows on the customer's screens as
// returned: the reversal in the customer's transactions, the balance back up, the return on the
// Payments tab and on Home. The return is recorded as a provider admin reads it off BluePay's
// console (POST /api/gateway/events/), the same door the daily reports and Trans Notify use.

const ADMIN_EMAIL = "returns-admin@example.test";
const ADMIN_PASSWORD = "returns-Admin-Password-1";

/** Set E2E_SCREENSHOTS to a directory to keep a PNG of each screen this file looks at. */
async function shoot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

describe("returned ACH payments", () => {
  const world = usePaymentWorld(ADMIN_EMAIL, ADMIN_PASSWORD);

  test("an R01 return shows on the customer's transactions and Payments tab, and raises the balance back", async () => {
    const { admin } = world.current();
    const shop = await makePayClient(admin, "Returns Client");
    const ron = await shop.customer("Ron", "Returned");
    await shop.charge(ron, "40.00");
    const paid = await admin.request<{ approved: boolean }>("POST", "payments/make-payment/customer/", {
      client_id: shop.client.id,
      customer_id: ron.id,
      paymentMethod: "check",
      checkRoutingNum: "123456780",
      checkAccountNum: "55667788",
      amount: "11.00",
    });
    expect(paid.approved).toBe(true);
    expect(await shop.balance(ron)).toBe("29.00");
    const attempts = await admin.request<{ results: { gateway_trans_id: string }[] }>(
      "GET",
      `payment-attempts/?client_id=${shop.client.id}&customer_id=${ron.id}`,
    );
    const saleId = attempts.results[0]?.gateway_trans_id ?? "";
    await admin.request("POST", `gateway/events/?client_id=${shop.client.id}`, {
      kind: "returned",
      gateway_trans_id: "990000000123",
      original_trans_id: saleId,
      code: "R01",
    });
    expect(await shop.balance(ron)).toBe("40.00");

    const page = await world.openPage();
    await page.goto(`/customers/edit/${ron.id}?client_id=${shop.client.id}&tab=payments`);
    const returns = page.getByTestId("gateway-returns");
    await returns.getByText("ACH return R01 Insufficient funds").waitFor();
    await returns.getByText("Returned", { exact: true }).waitFor();
    await page.getByText("Balance $40.00").first().waitFor();
    await shoot(page, "returns-payments-tab");

    await page.goto(`/transactions/search?client_id=${shop.client.id}&customer=${ron.id}`);
    await page.getByRole("cell", { name: "ACH return R01 Insufficient funds" }).waitFor();
    await shoot(page, "returns-transactions");

    await page.goto(`/home?client_id=${shop.client.id}`);
    await page.getByTestId("gateway-returns").getByText("ACH return R01 Insufficient funds").waitFor();
  });
});
