import type { Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { readOutbox, waitForMail } from "../support/auth.js";
import type { CustomerFixture } from "../support/api.js";
import {
  EXP_YEAR,
  OTHER_TEST_CARDS,
  fillCard,
  makePayClient,
  payLinkFromStatementEmail,
  statementToPay,
  usePaymentWorld,
  type PayClient,
} from "./payment-world.js";

// Issue 29 points 5 and 6 in the browser: a statement paid on the public page emails the payer a
// receipt (found in the outbox and on the customer's Payments tab); the public page pays no more
// than the balance; a staff-issued link lets the customer store a card, once.

const ADMIN_EMAIL = "pay-receipt-admin@example.test";
const ADMIN_PASSWORD = "pay-receipt-Admin-Password-1";
const CYCLE = 15;
const RUN_DATE = "2026-05-15";
const CUSTOMER_EMAIL = "rita.receipt@example.test";
const PAYER_EMAIL = "rita.pays@example.test";
const AUTOPAY_CYCLE = 16;
const AUTOPAY_RUN_DATE = "2026-05-16";
const DECLINED_EMAIL = "dora.declined@example.test";

/** Set E2E_SCREENSHOTS to a directory to keep a PNG of each screen this file looks at. */
async function shoot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

describe("payment receipts and the public page's limits", () => {
  const world = usePaymentWorld(ADMIN_EMAIL, ADMIN_PASSWORD);
  let payClient: PayClient;
  let rita: CustomerFixture;
  let payLink: string;

  beforeAll(async () => {
    ({
      payClient,
      customer: rita,
      payLink,
    } = await statementToPay(world.current(), {
      clientName: "Receipt Client",
      cycle: CYCLE,
      runDate: RUN_DATE,
      customer: ["Rita", "Receipt"],
      email: CUSTOMER_EMAIL,
      // $45.00 due: odd dollars approve in the sandbox's TEST mode.
      amount: "45.00",
    }));
  });

  test("pays the statement on the public page and finds the receipt in the mail and on the Payments tab", async () => {
    const { server } = world.current();
    const page = await world.openPage({ anonymous: true });
    await page.goto("/payments");
    await page.goto(payLink);
    await page.getByText("Receipt Client").waitFor();
    // The page no longer fills in (or shows) the customer's email.
    expect(await page.getByLabel(/^Email/).inputValue()).toBe("");
    await fillCard(page);

    // More than the balance is refused by the server, with the amount's message.
    await page.getByLabel(/^Amount/).fill("47.00");
    await page.getByRole("button", { name: /^Pay / }).click();
    await page.getByText("The amount cannot be more than the balance due of $45.00.").first().waitFor();
    await shoot(page, "public-over-balance");

    await expect
      .poll(() => page.getByRole("button", { name: /^Pay / }).isEnabled(), { timeout: 10_000 })
      .toBe(true);
    await page.getByLabel(/^Amount/).fill("45.00");
    await page.getByLabel(/^Email/).fill(PAYER_EMAIL);
    await page.getByRole("button", { name: /^Pay / }).click();
    await page.getByText("Payment approved").first().waitFor();

    const receipt = await waitForMail(server, PAYER_EMAIL, 60_000);
    expect(receipt.subject).toContain("Receipt Client: payment receipt for $45.00");
    const body = receipt.body.replace(/=\r?\n/g, "").replace(/=3D/gi, "=");
    expect(body).toContain("ending in 1111");
    expect(body).toContain("Balance after this payment: $0.00");

    const staff = await world.openPage();
    await staff.goto(`/customers/edit/${rita.id}?client_id=${payClient.client.id}&tab=payments`);
    await staff.getByRole("heading", { level: 1, name: "Edit Customer" }).waitFor();
    const attempts = staff.getByRole("table", { name: "Payment attempts" });
    const row = attempts.locator('tbody tr[data-status="approved"]').first();
    await row.waitFor();
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain("Receipt sent");
    expect(await row.textContent()).toContain(PAYER_EMAIL);
    await shoot(staff, "payments-tab-receipt");
  });

  test("a staff-issued link lets the customer store a card once", async () => {
    const { admin } = world.current();
    const staff = await world.openPage();
    await staff.goto(`/customers/edit/${rita.id}?client_id=${payClient.client.id}&tab=payments`);
    await staff.getByRole("button", { name: "Link for the customer" }).click();
    const issued = staff.getByTestId("payment-link");
    await issued.waitFor();
    const url = /https?:\/\/\S+\/payments\?link=[^\s"<]+/.exec((await issued.textContent()) ?? "")?.[0] ?? "";
    expect(url).toContain("recordPayment=true");
    await shoot(staff, "payments-tab-link");

    const page = await world.openPage({ anonymous: true });
    const link = new URL(url);
    await page.goto("/payments");
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByText("store a payment method for your account").waitFor();
    await fillCard(page, OTHER_TEST_CARDS[0]);
    await page.getByLabel("Autopay").check();
    await shoot(page, "link-store-method");
    await page.getByRole("button", { name: "Store card" }).click();
    await page.getByText("Payment method stored").first().waitFor();
    const customer = await admin.request<{ autopay_flag: boolean }>(
      "GET",
      `customers/${rita.id}/?client_id=${payClient.client.id}`,
    );
    expect(customer.autopay_flag).toBe(true);

    const again = await world.openPage({ anonymous: true });
    await again.goto(`${link.pathname}${link.search}`);
    await again.getByText("This link has expired or was already used.").waitFor();
  });

  test("a declined autopay charge emails the customer and is flagged for staff", async () => {
    const { admin, server } = world.current();
    const autopayClient = await makePayClient(admin, "Autopay Decline Client", { cycle: AUTOPAY_CYCLE });
    const dora = await autopayClient.customer("Dora", "Declined", { email: DECLINED_EMAIL, pull_flag: "E" });
    // $24.00 due: an even amount, which the sandbox declines.
    await autopayClient.charge(dora, "24.00");
    await admin.request("POST", "payments/make-payment/customer/", {
      client_id: autopayClient.client.id,
      customer_id: dora.id,
      paymentMethod: "cc",
      ccNum: OTHER_TEST_CARDS[1],
      cvv: "123",
      expMonth: "12",
      expYear: EXP_YEAR,
      amount: "0.00",
      recordPayment: true,
      autoPay: true,
    });
    // The production run emails the statement, then autopay charges its amount due.
    await payLinkFromStatementEmail(
      world.current(),
      autopayClient.client.id,
      AUTOPAY_CYCLE,
      AUTOPAY_RUN_DATE,
      DECLINED_EMAIL,
      { payLink: false },
    );
    await expect
      .poll(
        async () =>
          (await readOutbox(server)).some(
            (mail) =>
              mail.to === DECLINED_EMAIL && mail.subject.includes("automatic payment of $24.00 was declined"),
          ),
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true);

    const staff = await world.openPage();
    await staff.goto(`/customers/processCC?client_id=${autopayClient.client.id}`);
    const declines = staff.getByRole("table", { name: "Declined autopay charges" });
    await declines.getByText(/Dora Declined/).waitFor();
    await shoot(staff, "process-cc-autopay-declines");
    await declines.getByRole("link", { name: /Dora Declined/ }).click();
    await staff.getByRole("heading", { level: 1, name: "Edit Customer" }).waitFor();
    await staff.getByRole("tab", { name: "Payments" }).click();
    await staff.getByTestId("autopay-declined").waitFor();
    expect(await staff.getByTestId("autopay-declined").textContent()).toContain("$24.00");
    await shoot(staff, "payments-tab-autopay-declined");
  });
});
