import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import {
  createCustomer,
  createCycleClient,
  runCycle,
  type ApiSession,
  type RunFixture,
} from "../support/api.js";
import { useAdminBrowser } from "../support/admin-browser.js";

const ADMIN_EMAIL = "undo-admin@example.test";
const ADMIN_PASSWORD = "undo-Admin-Password-1";
const CYCLE = 13;
const RUN_DATE = "2026-05-13";

type Run = RunFixture & {
  clients: { client_id: number; undo: { undone_at: string | null } | null }[];
};

describe("undo a production run", () => {
  const session = useAdminBrowser(ADMIN_EMAIL, ADMIN_PASSWORD);
  let admin: ApiSession;
  let page: Page;
  beforeEach(() => {
    ({ admin, page } = session.current());
  });

  test("an admin undoes a client's part from Admin Processing and can run the cycle again", async () => {
    const client = await createCycleClient(admin, "Undo Client", CYCLE);
    await createCustomer(admin, client.id, { first_name: "Una", last_name: "Undone", address1: "2 Oak St" });
    const run = await runCycle<Run>(admin, CYCLE, { run_date: RUN_DATE });
    expect(run.status).toBe("done");

    await page.goto(`/AdminProcessingView?cycle=${CYCLE}&run_date=${RUN_DATE}&run=${run.id}`);
    await page.getByRole("heading", { level: 1, name: "Admin Processing" }).waitFor();
    const clients = page.getByRole("table", { name: "Clients of the cycle" });
    await clients.getByText("Skipped: Already run for this cycle and month").waitFor();
    const card = page.getByLabel(`Run ${run.id}`, { exact: true });
    await card.getByRole("button", { name: "Undo run" }).click();
    const confirm = page.getByRole("dialog", { name: "Undo Undo Client's run?" });
    await confirm.getByText("Only while nothing has gone out").waitFor();
    // The undo asks why, and keeps the answer in the audit trail.
    expect(await confirm.getByRole("button", { name: "Undo the run" }).isDisabled()).toBe(true);
    await confirm.getByLabel("Why is the run undone?").fill("Ran with the wrong rates");
    await confirm.getByRole("button", { name: "Undo the run" }).click();
    await card
      .getByTestId("undo-state")
      .getByText(/^Undone by /)
      .waitFor({ timeout: 30_000 });
    expect(await card.getByTestId("undo-state").textContent()).toMatch(/1 statement, 0 charges withdrawn/);

    const undone = await admin.request<Run>("GET", `productionruns/${run.id}/`);
    expect(undone.clients[0]?.undo?.undone_at).toBeTruthy();
    const trail = await admin.request<{ results: { action: string; reason: string | null }[] }>(
      "GET",
      `audit/?client_id=${client.id}&record_kind=production_run`,
    );
    expect(trail.results.find((row) => row.action === "production_run.undo_requested")?.reason).toBe(
      "Ran with the wrong rates",
    );
    // The client bills again: the cycle's preview no longer skips it.
    await page.reload();
    await clients.getByRole("row").filter({ hasText: "Undo Client" }).waitFor();
    expect(await clients.getByText("Skipped: Already run for this cycle and month").count()).toBe(0);
  });
});
