import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import {
  createCode,
  createCustomer,
  createCycleClient,
  postEntry,
  runCycle,
  type ApiSession,
} from "../support/api.js";
import { useAdminBrowser } from "../support/admin-browser.js";
import { appToday } from "../support/app-today.js";

// Issue 41, corrected statements: after a period is reopened and a charge posted into it, the
// statement's row says it needs correcting; the admin reissues it (same number, "Corrected" and the
// day), resends it by email and adds it to the next pool, each offered only as its actions allow.

const ADMIN_EMAIL = "corrected-admin@example.test";
const ADMIN_PASSWORD = "corrected-Admin-Password-1";
const CYCLE = 14;
const RUN_DATE = "2026-05-14";
const EMAIL = "rita.corrected@example.com";

type ApiStatement = { id: number; statement_num: number; version: number; replaced_by: number | null };

describe("corrected statements", () => {
  const session = useAdminBrowser(ADMIN_EMAIL, ADMIN_PASSWORD);
  let admin: ApiSession;
  let page: Page;
  beforeEach(() => {
    ({ admin, page } = session.current());
  });

  test("a statement that no longer proves itself is reissued, resent and added to the next pool", async () => {
    const client = await createCycleClient(admin, "Corrected Lawn Co", CYCLE);
    const customer = await createCustomer(admin, client.id, {
      first_name: "Rita",
      last_name: "Corrected",
      pull_flag: "M",
      email: EMAIL,
    });
    const code = await createCode(admin, client.id, {
      code: 514,
      description: "Lawn care",
      code_type: "charge",
    });
    const charge = (rate: string, day: string) =>
      postEntry(admin, client.id, {
        customer: customer.id,
        code: code.id,
        description: "Lawn care",
        rate,
        serviceDate: day,
      });
    await charge("40.00", "2026-05-02");
    await runCycle(admin, CYCLE, { run_date: RUN_DATE, client_ids: [client.id] });
    await admin.request("POST", `clients/${client.id}/closed-period/reopen/`, { reason: "A missed visit" });
    await charge("7.50", "2026-05-05");

    const list = `/invoicesAndStatements?client_id=${client.id}&customer_id=${customer.id}`;
    await page.goto(list);
    const table = page.getByRole("table", { name: "Invoices and statements" });
    const [original] = (
      await admin.request<{ results: ApiStatement[] }>(
        "GET",
        `statements/?client_id=${client.id}&proves=false`,
      )
    ).results;
    if (!original) throw new Error("the statement should need correcting");
    const name = `statement ${original.statement_num}`;
    const row = () => table.getByRole("row").filter({ hasText: "Needs correction" });
    await row().waitFor();
    // While the period is open, no reissue is offered.
    await row()
      .getByRole("button", { name: `More actions for ${name}` })
      .click();
    await page.getByRole("menuitem", { name: "Resend email" }).waitFor();
    expect(await page.getByRole("menuitem", { name: "Reissue corrected…" }).count()).toBe(0);
    await page.keyboard.press("Escape");

    await admin.request("POST", `clients/${client.id}/closed-period/close/`, {});
    await page.reload();
    await row()
      .getByRole("button", { name: `More actions for ${name}` })
      .click();
    await page.getByRole("menuitem", { name: "Reissue corrected…" }).click();
    const dialog = page.getByRole("dialog", { name: `Reissue ${name}` });
    await dialog.getByRole("button", { name: "Reissue corrected statement" }).click();
    await page.getByText(`Statement ${original.statement_num} was reissued as corrected.`).waitFor();

    const today = await appToday(session.current().server.baseUrl);
    const [year, month, day] = today.split("-").map(Number);
    const shownToday = `${["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][(month ?? 1) - 1]} ${day}, ${year}`;
    const corrected = table.getByRole("row").filter({ hasText: `Corrected ${shownToday}` });
    await corrected.waitFor();
    await table.getByRole("row").filter({ hasText: "Replaced" }).waitFor();
    expect(await row().count()).toBe(0);
    expect(await corrected.getByRole("cell").nth(5).textContent()).toBe("$47.50");

    await corrected.getByRole("button", { name: `More actions for ${name}` }).click();
    await page.getByRole("menuitem", { name: "Resend email" }).click();
    await page.getByText(`The ${name} was emailed to ${EMAIL}.`).waitFor();

    await corrected.getByRole("button", { name: `More actions for ${name}` }).click();
    await page.getByRole("menuitem", { name: "Add to next pool" }).click();
    await corrected.getByText("In next pool").waitFor();
    await page.screenshot({ path: "/tmp/reissue-shots/corrected-row.png", fullPage: true });
    // Queued once: no second offer.
    await corrected.getByRole("button", { name: `More actions for ${name}` }).click();
    expect(await page.getByRole("menuitem", { name: "Add to next pool" }).count()).toBe(0);
    await page.keyboard.press("Escape");

    const statements = (
      await admin.request<{ results: ApiStatement[] }>("GET", `statements/?client_id=${client.id}`)
    ).results;
    expect(statements.map((s) => [s.statement_num, s.version, s.replaced_by !== null]).sort()).toEqual([
      [original.statement_num, 1, true],
      [original.statement_num, 2, false],
    ]);
  });
});
