import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { createCustomer, createCycleClient, type ApiSession } from "../support/api.js";
import { useAdminBrowser } from "../support/admin-browser.js";

const ADMIN_EMAIL = "production-admin@example.test";
const ADMIN_PASSWORD = "production-Admin-Password-1";
const CYCLE = 12;
const RUN_DATE = "2026-05-12";

describe("admin processing", () => {
  const session = useAdminBrowser(ADMIN_EMAIL, ADMIN_PASSWORD);
  let admin: ApiSession;
  let page: Page;
  beforeEach(() => {
    ({ admin, page } = session.current());
  });

  test("preview a cycle, drill into a client, run it, watch it finish, see it in the history", async () => {
    const client = await createCycleClient(admin, "Production Client", CYCLE);
    await createCustomer(admin, client.id, { first_name: "Ann", last_name: "Mailed" });
    await createCustomer(admin, client.id, { first_name: "Ned", last_name: "Nobill", pull_flag: "N" });

    await page.goto(`/AdminProcessingView?cycle=${CYCLE}&run_date=${RUN_DATE}`);
    await page.getByRole("heading", { level: 1, name: "Admin Processing" }).waitFor();
    const clients = page.getByRole("table", { name: "Clients of the cycle" });
    const row = clients.getByRole("row").filter({ hasText: "Production Client" });
    await row.waitFor();
    // customers 2; mail 1, email 0, both 0, pulled 0, none 1
    expect(await row.getByRole("cell").allTextContents()).toEqual(
      expect.arrayContaining(["2", "1", "0", "0 · $0.00"]),
    );

    await row.getByRole("button", { name: "Production Client" }).click();
    const customers = page.getByRole("table", { name: "Customers of the client" });
    await customers
      .getByRole("row")
      .filter({ hasText: "Nobill" })
      .getByText("None: No bill this month (N)")
      .waitFor();
    await customers.getByRole("button", { name: /Mailed/ }).click();
    const dialog = page.getByRole("dialog", { name: "Preview statement" });
    await dialog.getByText("The run posts nothing for this customer.").waitFor();
    // The statement the run would produce, as a PDF (nothing written).
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      dialog.getByRole("button", { name: "Statement PDF" }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(new RegExp(`^Statement preview \\d+ ${RUN_DATE}\\.pdf$`));
    expect((await readFile(await file.path())).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: `Run cycle ${CYCLE}` }).click();
    const confirm = page.getByRole("dialog", { name: `Run cycle ${CYCLE}?` });
    await confirm.getByText(`Run cycle ${CYCLE} for ${RUN_DATE}: 1 client (Production Client).`).waitFor();
    await confirm.getByRole("button", { name: "Start the run" }).click();
    await page.getByTestId("run-progress").getByText("2 of 2 customers done").waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).searchParams.get("run")).toMatch(/^\d+$/);
    // The finished run reaches the history without a reload.
    const history = page.getByRole("table", { name: "Run history" });
    await history.getByRole("row").filter({ hasText: RUN_DATE }).getByText("done").waitFor();
    // The opened client now says why there is nothing to preview, not an empty table.
    await page.getByText(`A run on ${RUN_DATE} posts nothing for this client.`).waitFor();

    // The bar survives a reload: the run is in the address.
    await page.reload();
    await page.getByTestId("run-progress").getByText("2 of 2 customers done").waitFor();
    await history.getByRole("row").filter({ hasText: RUN_DATE }).getByText("done").waitFor();
    await clients.getByText("Skipped: Already run for this cycle and month").waitFor();
  });
});
