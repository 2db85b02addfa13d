import { existsSync } from "node:fs";
import { beforeEach, describe, expect, test } from "vitest";
import type { Page } from "playwright-core";
import { appToday } from "../support/app-today.js";
import { createCustomer, createCycleClient, type ApiSession } from "../support/api.js";
import { useBrowserWorld } from "../support/browser-world.js";
import type { RunningServer } from "../support/server.js";

const ADMIN_EMAIL = "schedule-admin@example.test";
const ADMIN_PASSWORD = "schedule-Admin-Password-1";
const FAKETIME_LIB = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";
const DAY_MS = 86_400_000;

/**
 * Days to move the server's clock forward so its today is a cycle day (the 29th to the 31st are
 * none): 0 from the 2nd to the 27th, else to the 3rd of next month (a day's margin each side for
 * the provider's time zone). Forward only: sessions made on the moved clock outlive the browser's.
 */
function daysToCycleDay(now = new Date()): number {
  const day = now.getUTCDate();
  if (day >= 2 && day <= 27) return 0;
  for (let ahead = 1; ahead <= 6; ahead += 1)
    if (new Date(now.getTime() + ahead * DAY_MS).getUTCDate() === 3) return ahead;
  return 0;
}

/** FAKETIME for the server: `ahead` days past this process's clock, itself moved when run under faketime. */
function movedFaketime(current: string | undefined, ahead: number): string {
  const offset = /^([+-]?\d+)d$/.exec(current ?? "");
  if (offset) return `${Number(offset[1]) + ahead >= 0 ? "+" : ""}${Number(offset[1]) + ahead}d`;
  const fixed = /^@(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(current ?? "");
  if (fixed) {
    const moved = new Date(new Date(`${fixed[1]}T${fixed[2]}Z`).getTime() + ahead * DAY_MS).toISOString();
    return `@${moved.slice(0, 10)} ${moved.slice(11, 19)}`;
  }
  return `+${ahead}d`;
}

type Scheduled = {
  results: { id: number | null; cycle: number; state: string; cycle_run_id: number | null }[];
};
type Run = { id: number; status: string; clients: { client_id: number }[] };

describe("a scheduled cycle held for approval", () => {
  const world = useBrowserWorld({
    admin: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    api: ADMIN_EMAIL,
    signIn: ADMIN_EMAIL,
    failOnUncaught: true,
    // The scheduled run is today's: the server's clock (libfaketime, as a run a year ahead uses)
    // is moved to a cycle day when today is none.
    env: (): Record<string, string> => {
      const ahead = daysToCycleDay();
      if (ahead === 0 || !existsSync(FAKETIME_LIB)) return {};
      return {
        LD_PRELOAD: FAKETIME_LIB,
        FAKETIME: movedFaketime(process.env.FAKETIME, ahead),
        FAKETIME_DONT_FAKE_MONOTONIC: "1",
      };
    },
  });
  let admin: ApiSession;
  let page: Page;
  let server: RunningServer;
  beforeEach(() => {
    ({ api: admin, page, server } = world.current());
  });

  test("is set on Admin Processing, waits with its preview, and runs when approved", async () => {
    const today = await appToday(server.baseUrl);
    const cycle = Number(today.slice(8));
    expect(cycle).toBeLessThanOrEqual(28);
    const client = await createCycleClient(admin, "Scheduled Client", cycle);
    await createCustomer(admin, client.id, {
      first_name: "Sam",
      last_name: "Scheduled",
      address1: "3 Elm St",
    });

    await page.goto(`/AdminProcessingView?cycle=${cycle}`);
    await page.getByRole("heading", { level: 1, name: "Admin Processing" }).waitFor();
    await page.getByText("No cycle runs by itself yet").waitFor();
    await page.getByRole("combobox", { name: "Schedule cycle" }).click();
    await page.getByRole("option", { name: `Cycle ${cycle}`, exact: true }).click();
    await page.getByLabel("Time of day").fill("00:00");
    await page.getByLabel("Hold the preview for approval").check();
    await page.getByRole("button", { name: "Save schedule" }).click();
    const schedules = page.getByRole("table", { name: "Cycle schedules" });
    await schedules
      .getByRole("row")
      .filter({ hasText: `Cycle ${cycle}` })
      .getByText("Hold the preview for approval")
      .waitFor();

    // The minute's check, now (the scheduler job does the same each minute by the app's clock).
    await admin.request("POST", "production/scheduled/check/");
    const waiting = await admin.request<Scheduled>("GET", "production/scheduled/");
    expect(waiting.results).toMatchObject([{ cycle, state: "waiting_approval", cycle_run_id: null }]);

    await page.reload();
    const todays = page.getByRole("table", { name: "Today's scheduled cycles" });
    const row = todays.getByRole("row").filter({ hasText: `Cycle ${cycle}` });
    await row.getByText("Waiting for approval").waitFor();
    await row.getByRole("button", { name: "Review and approve" }).click();
    const dialog = page.getByRole("dialog", { name: `Approve the scheduled run of cycle ${cycle}?` });
    const preview = dialog.getByRole("table", { name: "Preview of the scheduled run" });
    await preview.getByRole("row").filter({ hasText: "Scheduled Client" }).waitFor();
    await dialog.getByText(/1 clients? bill/).waitFor();
    await page.screenshot({ path: "/tmp/schedule-approval.png", fullPage: true });
    await dialog.getByRole("button", { name: "Approve" }).click();
    await dialog.waitFor({ state: "detached" });

    await row.getByText("Done").waitFor({ timeout: 60_000 });
    await page.screenshot({ path: "/tmp/schedule-done.png", fullPage: true });
    const done = await admin.request<Scheduled>("GET", "production/scheduled/");
    const runId = done.results[0]?.cycle_run_id ?? 0;
    expect(done.results).toMatchObject([{ cycle, state: "done" }]);
    const run = await admin.request<Run>("GET", `productionruns/${runId}/`);
    expect(run.status).toBe("done");
    expect(run.clients.map((part) => part.client_id)).toEqual([client.id]);
    // A second check the same day starts nothing more.
    await admin.request("POST", "production/scheduled/check/");
    const runs = await admin.request<{ results: { id: number; cycle: number }[] }>("GET", "productionruns/");
    expect(runs.results.filter((item) => item.cycle === cycle)).toHaveLength(1);
  });
});
