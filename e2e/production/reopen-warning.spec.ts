import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { createCustomer, createCycleClient, runCycle, type ApiSession } from "../support/api.js";
import { useAdminBrowser } from "../support/admin-browser.js";

// Issue 41 point 7: reopening a period did not warn that the statements sent in it stop proving
// themselves; the confirmation now counts them and says so before anything changes.

const ADMIN_EMAIL = "reopen-admin@example.test";
const ADMIN_PASSWORD = "reopen-Admin-Password-1";
const CYCLE = 18;
const RUN_DATE = "2026-05-18";

describe("reopening a closed period", () => {
  const session = useAdminBrowser(ADMIN_EMAIL, ADMIN_PASSWORD);
  let admin: ApiSession;
  let page: Page;
  beforeEach(() => {
    ({ admin, page } = session.current());
  });

  test("the confirmation counts the sent statements in the period and says they stop proving themselves", async () => {
    const client = await createCycleClient(admin, "Reopen Client", CYCLE);
    for (const [first, street] of [
      ["Rae", "4 Elm St"],
      ["Roy", "5 Elm St"],
    ] as const)
      await createCustomer(admin, client.id, { first_name: first, last_name: "Reopen", address1: street });
    const run = await runCycle(admin, CYCLE, { run_date: RUN_DATE, client_ids: [client.id] });
    expect(run.status).toBe("done");

    await page.goto(`/clients/${client.id}?client_id=${client.id}`);
    await page.getByRole("tab", { name: "Status" }).click();
    const panel = page.getByTestId("closed-period");
    await panel.getByText("05/18/2026").first().waitFor();
    await panel.getByLabel("Reason").fill("Missed meter reading");
    await panel.getByRole("button", { name: "Reopen" }).click();
    // Before: the books reopened at once, with no word of the statements already sent.
    const dialog = page.getByRole("dialog", { name: "Reopen the period?" });
    const warning = dialog.getByTestId("reopen-statements");
    await warning.waitFor();
    expect(await warning.textContent()).toBe(
      "2 sent statements are dated in the reopened period. Once anything in it changes, they will no longer prove themselves (the ledger will no longer add up to what was sent) until reissued.",
    );
    // Nothing changed yet; the confirmation does it.
    expect(await panel.getByText("Reopened", { exact: true }).count()).toBe(0);
    await dialog.getByRole("button", { name: "Reopen the period" }).click();
    await dialog.waitFor({ state: "detached" });
    await panel.getByText("Reopened", { exact: true }).first().waitFor();
  });
});
