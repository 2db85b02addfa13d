import { DEMO_ACCOUNT, startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { createCycleClient } from "../support/api.js";
import { uncaught } from "../support/auth.js";
import { axeViolations, formatViolations } from "../support/axe.js";
import { closePage, collectPageErrors } from "../support/browser.js";
import { useBrowserWorld } from "../support/browser-world.js";
import { startReportStandIn, type ReportStandIn } from "./report-stand-in.js";

// The gateway reconciliation screen: from Account Reports an admin opens it, picks a day, runs it,
// follows the run's progress, and reads the day's totals and its difference (a sale BluePay settled
// that the books do not hold).

const ADMIN_EMAIL = "reconcile-admin@example.test";
const ADMIN_PASSWORD = "reconcile-Admin-Password-1";
const DAY = "2026-03-10";

describe("Gateway reconciliation", () => {
  let sandbox: Sandbox | undefined;
  let standIn: ReportStandIn | undefined;
  let page: Page | undefined;
  let pageErrors: string[] = [];

  // Registered before the server's hooks, so they close after them.
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    standIn = await startReportStandIn(sandbox.url);
  });
  afterAll(async () => {
    await standIn?.close();
    await sandbox?.close();
  });

  const world = useBrowserWorld({
    admin: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    api: ADMIN_EMAIL,
    env: () => ({ BLUEPAY_URL: standIn?.bp20postUrl ?? "" }),
    startupTimeoutMs: 300_000,
    pagePerTest: false,
  });

  afterEach(async ({ task }) => {
    if (page) await closePage(page, task);
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("an admin runs a day and sees what BluePay settled that the books do not hold", async () => {
    const { api } = world.current();
    const client = await createCycleClient(api, "Reconciled Lawn Co", 12, {
      bluepay_account_id: DEMO_ACCOUNT.accountId,
      bluepay_secret_key: DEMO_ACCOUNT.secretKey,
    });
    standIn?.setRows([
      {
        id: "100000000999",
        payment_type: "CREDIT",
        trans_type: "SALE",
        amount: "41.00",
        status: "1",
        f_void: "0",
        message: "Approved Sale",
        origin: "bp20post",
        issue_date: `${DAY} 10:00:00`,
        settle_date: `${DAY} 23:00:00`,
        settlement_id: "300000000001",
      },
    ]);
    page = await world.current().openPage(ADMIN_EMAIL);
    pageErrors = collectPageErrors(page);
    await page.goto(`/reports?client_id=${client.id}`);
    await page.getByRole("link", { name: "Open reconciliation" }).click();
    await page.getByRole("heading", { level: 1, name: "Gateway reconciliation" }).waitFor();
    await page.getByLabel("Day").fill(DAY);
    await page.getByText(`${DAY} has not been reconciled yet.`).waitFor();

    await page.getByRole("button", { name: "Run for this day" }).click();
    const report = page.getByRole("region", { name: `Reconciliation of ${DAY}` });
    await report.getByText("At the gateway, not in the ledger").waitFor({ timeout: 30_000 });
    await page.getByText("Finished").waitFor();
    expect(await report.getByRole("row").filter({ hasText: "100000000999" }).innerText()).toContain("41.00");
    expect(await report.innerText()).toContain("Settled at BluePay");
    const days = page.getByRole("region", { name: "Reconciled days" });
    await days.getByRole("row").filter({ hasText: DAY }).waitFor();
    expect(formatViolations(await axeViolations(page))).toBe("");
    if (process.env.RECONCILE_SCREENSHOT)
      await page.screenshot({ path: process.env.RECONCILE_SCREENSHOT, fullPage: true });
  });
});
