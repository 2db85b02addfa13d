import { STATEMENT_NOT_FOUND_MESSAGE } from "@cyclebill/domain";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { axeViolations, formatViolations } from "../support/axe.js";
import type { CustomerFixture } from "../support/api.js";
import { fillCard, statementToPay, usePaymentWorld, type PayClient } from "./payment-world.js";

// The public pay-a-statement page: a customer opens the pay link from the statement email in the
// outbox, pays with a test card at the sandbox, and sees the balance fall.

const ADMIN_EMAIL = "pay-page-admin@example.test";
const ADMIN_PASSWORD = "pay-page-Admin-Password-1";
const CYCLE = 14;
const RUN_DATE = "2026-05-14";
const PAYER_EMAIL = "payer@example.test";

describe("the public payment page", () => {
  const world = usePaymentWorld(ADMIN_EMAIL, ADMIN_PASSWORD);
  let payClient: PayClient;
  let payer: CustomerFixture;
  let payLink: string;

  beforeAll(async () => {
    ({
      payClient,
      customer: payer,
      payLink,
    } = await statementToPay(world.current(), {
      clientName: "Statement Pay Client",
      cycle: CYCLE,
      runDate: RUN_DATE,
      customer: ["Paula", "Payer"],
      email: PAYER_EMAIL,
      // $45.00 due: odd dollars approve in the sandbox's TEST mode, even ones decline.
      amount: "45.00",
    }));
  });

  const payButton = (page: Page) => page.getByRole("button", { name: /^Pay / });

  test("an unknown pay code alerts and goes back to /payments", async () => {
    const page = await world.openPage({ anonymous: true });
    await page.goto("/payments");
    await page.getByRole("heading", { level: 1, name: "BluePay payments" }).waitFor();
    await page.getByLabel("Payment code").fill(`${payClient.client.id}-${"0".repeat(32)}`);
    await page.getByRole("button", { name: "Find statement" }).click();
    await page.getByText(STATEMENT_NOT_FOUND_MESSAGE).waitFor();
    await expect.poll(() => new URL(page.url()).search).toBe("");
    expect(new URL(page.url()).pathname).toBe("/payments");
  });

  test("the statement's link shows what is due; bad card details are refused before anything is sent", async () => {
    const page = await world.openPage({ anonymous: true });
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/make-payment/")) sent.push(request.url());
    });
    await page.goto(payLink);
    await page.getByText("Statement Pay Client").waitFor();
    await page.getByText(/Paula Payer/).waitFor();
    expect(await page.getByLabel(/^Amount/).inputValue()).toBe("45.00");
    await fillCard(page);
    expect(formatViolations(await axeViolations(page))).toBe("");
    await page.getByLabel(/^Card number/).fill("4111 1111 1111 1112");
    await payButton(page).click();
    await page.getByText("Enter a valid card number.").waitFor();
    expect(sent).toEqual([]);
  });

  test("a decline shows the gateway's message; a payment then goes through, closes or returns, and the balance falls", async () => {
    const { sandbox } = world.current();
    const page = await world.openPage({ anonymous: true });
    const keys: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/make-payment/")) keys.push(request.headers()["idempotency-key"] ?? "");
    });
    // Through /payments first, so the page has history and the window stays open after its close().
    await page.goto("/payments");
    await page.goto(payLink);
    await fillCard(page);

    // An even amount declines: the attempt's message in an alert, nothing posted.
    await page.getByLabel(/^Amount/).fill("44.00");
    await payButton(page).dblclick();
    const failure = page.getByRole("alert").filter({ hasText: "The payment was not approved" });
    await failure.waitFor();
    expect((await failure.textContent())?.toLowerCase()).not.toContain("approved sale");
    expect(keys).toHaveLength(1); // the double click sent one request

    // The 5 s debounce: the button waits before another submit.
    await expect.poll(() => payButton(page).isEnabled(), { timeout: 10_000 }).toBe(true);
    await page.getByLabel(/^Amount/).fill("45.00");
    await payButton(page).click();
    await page.getByText("Payment approved").waitFor();
    // Still open 500 ms after close(): back to the payments page, with the receipt.
    await expect.poll(() => new URL(page.url()).search).toBe("");
    await page.getByText("Payment received").waitFor();
    await page.getByText("Balance now $0.00. Thank you.").waitFor();

    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
    expect(keys.every((key) => key.length >= 16)).toBe(true);
    expect(await payClient.balance(payer)).toBe("0.00");
    const sales = sandbox.transactions().filter((entry) => entry.transType === "SALE");
    expect(sales.map((entry) => entry.amount).sort()).toEqual(["44.00", "45.00"]);
  });

  test("a page opened by the statement's link closes itself after the approval", async () => {
    const { admin } = world.current();
    // Dated after the run that closed the books through its date (closed periods).
    await payClient.charge(payer, "7.00", "2026-05-20");
    const opener = await world.openPage({ anonymous: true });
    await opener.goto("/payments");
    const [popup] = await Promise.all([
      opener.context().waitForEvent("page"),
      opener.evaluate((link) => window.open(link, "_blank"), payLink),
    ]);
    await popup.getByLabel(/^Amount/).waitFor();
    await fillCard(popup);
    await popup.getByLabel(/^Amount/).fill("7.00");
    const closed = popup.waitForEvent("close");
    await payButton(popup).click();
    await closed;
    const customer = await admin.request<{ balance: string }>(
      "GET",
      `customers/${payer.id}/?client_id=${payClient.client.id}`,
    );
    expect(customer.balance).toBe("0.00");
  });
});
