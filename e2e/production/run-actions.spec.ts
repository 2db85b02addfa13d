import type { Page } from "playwright-core";
import { addDays } from "@cyclebill/domain";
import { beforeEach, describe, expect, test } from "vitest";
import {
  createCustomer,
  createCycleClient,
  runCycle,
  waitUntil,
  type ApiSession,
  type RunFixture,
} from "../support/api.js";
import { useAdminBrowser } from "../support/admin-browser.js";
import { appToday } from "../support/app-today.js";
import type { RunningServer } from "../support/server.js";

// Issue 41 points 6 and 7: Admin Processing offers only what the server accepts (the records'
// `actions`), a refusal in the undo dialog disables its button, an undone run says so and loses its
// pools, the status badge is never cut, and a run date the run would refuse is not previewed.

const ADMIN_EMAIL = "run-actions-admin@example.test";
const ADMIN_PASSWORD = "run-actions-Admin-Password-1";
const CYCLE = 16;
const RUN_DATE = "2026-05-16";

type Pool = { pool_name: string; state: string };

async function readyPools(admin: ApiSession, runId: number): Promise<Pool[]> {
  let pools: Pool[] = [];
  await waitUntil(async () => {
    pools = (await admin.request<{ results: Pool[] }>("GET", `pools/?production_run_id=${runId}`)).results;
    return pools.length > 0 && pools.every((pool) => pool.state === "ready");
  }, `the pools of run ${runId}`);
  return pools;
}

/** Takes a pool out as the print shop would: its download is what sends it. */
async function downloadPool(server: RunningServer, admin: ApiSession, name: string): Promise<void> {
  const response = await fetch(`${server.baseUrl}/api/dailyproduction/download/pool/${name}/`, {
    headers: { Authorization: `Bearer ${admin.token}` },
  });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
}

async function mailClient(admin: ApiSession, name: string): Promise<number> {
  const client = await createCycleClient(admin, name, CYCLE);
  await createCustomer(admin, client.id, { first_name: "Mia", last_name: "Mailed", address1: "3 Oak St" });
  return client.id;
}

describe("Admin Processing offers what the server accepts", () => {
  const session = useAdminBrowser(ADMIN_EMAIL, ADMIN_PASSWORD);
  let admin: ApiSession;
  let page: Page;
  let server: RunningServer;
  beforeEach(() => {
    ({ admin, page, server } = session.current());
  });

  test("no Rebuild pools while every pool is ready; no Undo once a pool went out, and a refused undo disables its button", async () => {
    const clientId = await mailClient(admin, "Actions Client");
    const run = await runCycle(admin, CYCLE, { run_date: RUN_DATE, client_ids: [clientId] });
    const [pool] = await readyPools(admin, run.id);
    if (!pool) throw new Error("no pool");

    await page.goto(`/AdminProcessingView?cycle=${CYCLE}&run_date=${RUN_DATE}&run=${run.id}`);
    const card = page.getByLabel(`Run ${run.id}`, { exact: true });
    await card.getByRole("button", { name: "Undo run" }).waitFor();
    const history = page.getByRole("table", { name: "Run history" });
    const historyRow = history.getByRole("row").filter({ hasText: `Run ${run.id}` });
    await historyRow.getByText("done").waitFor();
    // Before: Rebuild pools was offered here and answered 409.
    expect(await historyRow.getByRole("button", { name: /Rebuild pools/ }).count()).toBe(0);

    // The part's DONE badge shows its whole word (it was cut to "D…" in the crowded table).
    const badge = card.getByRole("row").filter({ hasText: "Actions Client" }).getByText("done");
    const cut = await badge.evaluate((element) => element.scrollWidth > element.clientWidth + 1);
    expect(cut).toBe(false);

    // The dialog is open when the pool goes out: the server refuses, and the button stays disabled.
    await card.getByRole("button", { name: "Undo run" }).click();
    const dialog = page.getByRole("dialog", { name: "Undo Actions Client's run?" });
    await dialog.getByLabel("Why is the run undone?").fill("Wrong rates");
    await downloadPool(server, admin, pool.pool_name);
    await dialog.getByRole("button", { name: "Undo the run" }).click();
    await dialog
      .getByTestId("undo-error")
      .getByText(/Delivery has started/)
      .waitFor();
    expect(await dialog.getByRole("button", { name: "Undo the run" }).isDisabled()).toBe(true);
    await dialog.getByRole("button", { name: "Keep the run" }).click();

    // Read again: no Undo is offered; a deleted pool makes Rebuild pools appear.
    await page.reload();
    await card.getByRole("row").filter({ hasText: "Actions Client" }).waitFor();
    expect(await card.getByRole("button", { name: "Undo run" }).count()).toBe(0);
    await admin.request("DELETE", `pools/${pool.pool_name}/`);
    await page.reload();
    await historyRow.getByRole("button", { name: `Rebuild pools of run ${run.id}` }).waitFor();
  });

  test("an undone run shows UNDONE and its pools leave the list without a reload", async () => {
    const clientId = await mailClient(admin, "Undone Client");
    const run = await runCycle<RunFixture>(admin, CYCLE, { run_date: RUN_DATE, client_ids: [clientId] });
    const [pool] = await readyPools(admin, run.id);
    if (!pool) throw new Error("no pool");

    await page.goto(`/AdminProcessingView?cycle=${CYCLE}&run_date=${RUN_DATE}&run=${run.id}`);
    const pools = page.getByRole("table", { name: "Pools" });
    const poolRow = pools.getByRole("row").filter({ hasText: pool.pool_name });
    await poolRow.getByRole("button", { name: "Download" }).waitFor();
    const card = page.getByLabel(`Run ${run.id}`, { exact: true });
    await card.getByRole("button", { name: "Undo run" }).click();
    const dialog = page.getByRole("dialog", { name: "Undo Undone Client's run?" });
    await dialog.getByLabel("Why is the run undone?").fill("Ran too early");
    await dialog.getByRole("button", { name: "Undo the run" }).click();
    await card
      .getByTestId("undo-state")
      .getByText(/^Undone by /)
      .waitFor({ timeout: 30_000 });
    // Before: the deleted pool kept its row and Download button, and the history said DONE.
    await poolRow.waitFor({ state: "detached" });
    const historyRow = page
      .getByRole("table", { name: "Run history" })
      .getByRole("row")
      .filter({ hasText: `Run ${run.id}` });
    await historyRow.getByText("undone", { exact: true }).waitFor();
    await card
      .getByRole("row")
      .filter({ hasText: "Undone Client" })
      .getByText("undone", { exact: true })
      .waitFor();
  });

  test("a run date past the limit shows the run's refusal instead of a preview, and no Run", async () => {
    const far = addDays(await appToday(server.baseUrl), 30);
    await page.goto(`/AdminProcessingView?cycle=${CYCLE}&run_date=${far}`);
    const refusal = page.getByTestId("run-date-refusal");
    await refusal.getByText(/A run date can be at most 7 days ahead of today/).waitFor();
    expect(await page.getByRole("button", { name: `Run cycle ${CYCLE}` }).isDisabled()).toBe(true);
    expect(await page.getByRole("table", { name: "Clients of the cycle" }).count()).toBe(0);
  });
});
