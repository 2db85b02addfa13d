import { readFile } from "node:fs/promises";
import { strFromU8, unzipSync } from "fflate";
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { createCustomer, createCustomers, createCycleClient, type ApiSession } from "../support/api.js";
import { useAdminBrowser } from "../support/admin-browser.js";

const ADMIN_EMAIL = "pools-admin@example.test";
const ADMIN_PASSWORD = "pools-Admin-Password-1";
const CYCLE = 13;
const RUN_DATE = "2026-05-13";

describe("print pools", () => {
  const session = useAdminBrowser(ADMIN_EMAIL, ADMIN_PASSWORD);
  let admin: ApiSession;
  let page: Page;
  beforeEach(() => {
    ({ admin, page } = session.current());
  });

  test("a run's pool builds, downloads as a zip in route order with its manifest, and deletes", async () => {
    const client = await createCycleClient(admin, "Pool Client", CYCLE);
    await createCustomers(admin, client.id, [
      ["Ann", "Zimmer"],
      ["Bea", "Adams"],
    ]);
    await createCustomer(admin, client.id, {
      first_name: "Eve",
      last_name: "Emailed",
      pull_flag: "E",
      email: "eve@example.com",
    });
    const name = `${RUN_DATE}-C${CYCLE}-${client.client_no}-mail`;

    await page.goto(`/AdminProcessingView?cycle=${CYCLE}&run_date=${RUN_DATE}`);
    await page.getByRole("heading", { level: 1, name: "Admin Processing" }).waitFor();
    await page.getByRole("button", { name: `Run cycle ${CYCLE}` }).click();
    await page
      .getByRole("dialog", { name: `Run cycle ${CYCLE}?` })
      .getByRole("button", { name: "Start the run" })
      .click();
    await page.getByTestId("run-progress").getByText("3 of 3 customers done").waitFor({ timeout: 30_000 });
    // The emailed statement goes out after the run; its count moves without a reload.
    await page.getByTestId("email-progress").getByText("1 of 1 sent").waitFor({ timeout: 30_000 });

    const pools = page.getByRole("table", { name: "Pools" });
    const row = pools.getByRole("row").filter({ hasText: name });
    await row.getByText("ready").waitFor({ timeout: 30_000 });
    expect(await row.getByRole("cell").allTextContents()).toEqual(
      expect.arrayContaining([name, "Pool Client", "Mailed to customers", "2", "2"]),
    );

    const [file] = await Promise.all([
      page.waitForEvent("download"),
      row.getByRole("button", { name: "Download" }).click(),
    ]);
    expect(file.suggestedFilename()).toBe(`${name}.zip`);
    const files = unzipSync(new Uint8Array(await readFile(await file.path())));
    expect(strFromU8(files[`${name}.pdf`]?.subarray(0, 5) ?? new Uint8Array())).toBe("%PDF-");
    const manifest = strFromU8(files[`${name}-manifest.csv`] ?? new Uint8Array())
      .trim()
      .split("\r\n");
    // No groups: by customer number, as the customers were added.
    expect(manifest.slice(1).map((line) => line.split(",")[2])).toEqual(["Ann Zimmer", "Bea Adams"]);

    await row.getByRole("button", { name: "Delete" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete this pool?" });
    await confirm.getByText("The statements themselves and every ledger entry stay as they are").waitFor();
    await confirm.getByRole("button", { name: "Delete pool" }).click();
    await pools.getByRole("row").filter({ hasText: name }).waitFor({ state: "detached" });
    expect((await admin.request<{ count: number }>("GET", `statements/?client_id=${client.id}`)).count).toBe(
      3,
    );
  });
});
