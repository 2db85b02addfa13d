import { mkdirSync } from "node:fs";
import { STATEMENT_NOT_FOUND_MESSAGE } from "@cyclebill/domain";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { readOutbox } from "../support/auth.js";
import {
  makePayClient,
  payLinkFromStatementEmail,
  usePaymentWorld,
  type PayClient,
} from "./payment-world.js";

// Issue 41 point 2: a client with no gateway key takes no card payments, and its pay page says so
// plainly before anything is typed (it showed a card form and refused only after a submit, under
// "Please correct the payment details"). Point 7 on the pay page: the form starts with city and
// state too; on a 390×844 phone the expiry labels keep to one line and a toast leaves the title clear.

const ADMIN_EMAIL = "pay-page-phone-admin@example.test";
const ADMIN_PASSWORD = "pay-page-phone-Admin-Password-1";
const RUN_DATE = "2026-05-16";
const SHOTS = process.env.SCREENSHOT_DIR ?? "";
const PHONE = { width: 390, height: 844 };

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxOf(page: Page, selector: ReturnType<Page["locator"]>): Promise<Box> {
  const box = await selector.boundingBox();
  if (!box) throw new Error("not on screen");
  return box;
}

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

describe("the pay page", () => {
  const world = usePaymentWorld(ADMIN_EMAIL, ADMIN_PASSWORD);
  let keyed: PayClient;
  let keyedLink: string;
  let keyless: PayClient;
  let keylessLink: string;

  beforeAll(async () => {
    const { admin } = world.current();
    keyed = await makePayClient(admin, "Phone Pay Client", { cycle: 16 });
    const payer = await keyed.customer("Casey", "Cityfield", {
      email: "casey@example.test",
      pull_flag: "E",
      city: "Springfield",
      state: "IL",
      zip: "62701",
    });
    await keyed.charge(payer, "45.00");
    keyedLink = await payLinkFromStatementEmail(
      world.current(),
      keyed.client.id,
      16,
      RUN_DATE,
      "casey@example.test",
    );
    // A client that once had a key: its earlier statement's link is still in the customer's hands.
    keyless = await makePayClient(admin, "Cash Only Client", { cycle: 17 });
    const cash = await keyless.customer("Nora", "Nocard", { email: "nora@example.test", pull_flag: "E" });
    await keyless.charge(cash, "31.00");
    keylessLink = await payLinkFromStatementEmail(
      world.current(),
      keyless.client.id,
      17,
      "2026-05-17",
      "nora@example.test",
    );
    const record = await admin.request<Record<string, unknown>>("GET", `clients/${keyless.client.id}/`);
    await admin.request("PUT", `clients/${keyless.client.id}/?client_id=${keyless.client.id}`, {
      ...record,
      bluepay_account_id: "",
      clear_blue_pay_key: true,
      change_reason: "Stopped taking cards",
    });
  });

  test("a client without a gateway key: the page says so plainly and shows no form", async () => {
    const page = await world.openPage({ anonymous: true });
    await page.goto(keylessLink);
    await page.getByText("Cash Only Client does not take card payments online").waitFor();
    await page.getByText(/Nora Nocard/).waitFor();
    expect(await page.getByRole("form").count()).toBe(0);
    expect(await page.getByLabel(/^Card number/).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Pay/ }).count()).toBe(0);
    await shoot(page, "no-card-desktop");
    await page.setViewportSize(PHONE);
    await shoot(page, "no-card-phone");
  });

  test("on a phone: the expiry labels keep to one line", async () => {
    const page = await world.openPage({ anonymous: true });
    await page.setViewportSize(PHONE);
    await page.goto(keyedLink);
    await page.getByText(/Casey Cityfield/).waitFor();
    await page
      .locator("label")
      .filter({ hasText: /^Card$/ })
      .click();
    // One line each: the expiry labels stand as tall as the card number's.
    const lineHeight = (await boxOf(page, page.locator("label", { hasText: /^Card number/ }))).height;
    for (const label of [/^Exp\. month/, /^Exp\. year/, /^CVV/])
      expect((await boxOf(page, page.locator("label", { hasText: label }))).height).toBe(lineHeight);
    await shoot(page, "pay-page-phone");
  });

  test("on a phone: the form starts with city and state", async () => {
    const page = await world.openPage({ anonymous: true });
    await page.setViewportSize(PHONE);
    await page.goto(keyedLink);
    await page.getByText(/Casey Cityfield/).waitFor();
    expect(await page.getByLabel(/^City/).inputValue()).toBe("Springfield");
    expect(await page.getByLabel("State", { exact: true }).first().inputValue()).toMatch(/^IL/);
    expect(await page.getByLabel(/^ZIP/).inputValue()).toBe("62701");
  });

  test("on a phone: a toast leaves the page's title clear", async () => {
    const page = await world.openPage({ anonymous: true });
    await page.setViewportSize(PHONE);
    await page.goto("/payments");
    const title = page.getByRole("heading", { level: 1, name: "BluePay payments" });
    await title.waitFor();
    await page.getByLabel("Payment code").fill(`${keyed.client.id}-${"0".repeat(32)}`);
    await page.getByRole("button", { name: "Find statement" }).click();
    const toast = page.locator(".mantine-Notification-root", { hasText: STATEMENT_NOT_FOUND_MESSAGE });
    await toast.waitFor();
    await expect.poll(() => new URL(page.url()).search).toBe("");
    await title.waitFor();
    expect(overlaps(await boxOf(page, toast), await boxOf(page, title))).toBe(false);
    await shoot(page, "toast-phone");
  });

  test("on a desktop: the form starts with the whole address", async () => {
    const page = await world.openPage({ anonymous: true });
    await page.goto(keyedLink);
    await page.getByText(/Casey Cityfield/).waitFor();
    expect(await page.getByLabel(/^City/).inputValue()).toBe("Springfield");
    await shoot(page, "pay-page-desktop");
    // The statement email of a client with a key carries its link (the keyless one's test is on the API).
    const mail = (await readOutbox(world.current().server)).find((m) => m.to === "casey@example.test");
    expect(mail?.body).toMatch(/statement_id=/);
  });
});
