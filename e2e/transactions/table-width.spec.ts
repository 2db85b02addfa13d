import type { Locator, Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import {
  createClient,
  createCode,
  createCustomer,
  createInvoice,
  postEntry,
  type ApiSession,
} from "../support/api.js";
import { useAdminBrowser } from "../support/admin-browser.js";

const ADMIN_EMAIL = "width-admin@example.test";
const ADMIN_PASSWORD = "width-Admin-Password-1";

/** How far the table sticks out of its scroll area, in CSS pixels (0 when it fits). */
function overflow(table: Locator): Promise<number> {
  return table.evaluate((element) => {
    const area = element.parentElement?.closest(".mantine-ScrollArea-viewport, div") ?? element;
    return Math.max(0, element.scrollWidth - area.clientWidth);
  });
}

/** Buttons and links of the table whose text is cut off or drawn outside the page. */
function clippedControls(table: Locator): Promise<string[]> {
  return table.evaluate((element) => {
    const right = document.documentElement.clientWidth;
    return Array.from(element.querySelectorAll("button, a"))
      .filter((control) => {
        const box = control.getBoundingClientRect();
        const label = control.querySelector(".mantine-Button-label") ?? control;
        return box.right > right + 0.5 || label.scrollWidth > label.clientWidth + 1;
      })
      .map((control) => control.textContent ?? "");
  });
}

// Issue 11, screen 2: Add Transaction mode and the invoice edit actions fit the screen.
describe("the transaction table fits the screen", () => {
  const session = useAdminBrowser(ADMIN_EMAIL, ADMIN_PASSWORD);
  let admin: ApiSession;
  let page: Page;
  beforeEach(() => {
    ({ admin, page } = session.current());
  });

  test("add mode at 1280 and 1440 px, and the invoice edit actions, show every column unclipped", async () => {
    const client = await createClient(admin, "Width Client");
    const mowing = await createCode(admin, client.id, {
      code: 101,
      description: "Lawn mowing",
      code_type: "charge",
    });
    const dora = await createCustomer(admin, client.id, {
      first_name: "Dorothea Maximiliane",
      last_name: "Featherstonehaugh-Whittingham",
    });
    const invoice = await createInvoice(admin, client.id, dora.id, "2026-04-01");
    const post = (description: string, extra: Record<string, unknown> = {}) =>
      postEntry(admin, client.id, {
        customer: dora.id,
        code: mowing.id,
        description,
        rate: "1234.56",
        serviceDate: "2026-04-01",
        ...extra,
      });
    await post("Edge trimming along the whole back fence", { invoice: invoice.id });
    await post("Hedge cutting", { rate: "98.76", serviceDate: "2026-04-02" });

    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/transactions/search?client_id=${client.id}`);
      const table = page.getByRole("table", { name: "Transactions" });
      await table.getByRole("cell", { name: "Hedge cutting" }).waitFor();
      await page.getByRole("button", { name: "Add Transaction" }).click();
      await table.getByRole("row", { name: "Add Transaction" }).waitFor();
      await page.screenshot({ path: `/tmp/screens-add-mode-${width}.png`, fullPage: true });
      expect({ width, overflow: await overflow(table) }).toEqual({ width, overflow: 0 });
      expect(await clippedControls(table)).toEqual([]);
      await table.getByRole("columnheader", { name: "Entered" }).waitFor();

      await page.goto(`/transactions/invoice/edit/${invoice.id}?client_id=${client.id}`);
      const lines = page.getByRole("table", { name: "Invoice transactions" });
      await lines.getByRole("cell", { name: "Edge trimming along the whole back fence" }).waitFor();
      // An open invoice opens in Add Transaction mode.
      await lines.getByRole("row", { name: "Add Transaction" }).waitFor();
      await page.screenshot({ path: `/tmp/screens-invoice-edit-${width}.png`, fullPage: true });
      expect({ width, overflow: await overflow(lines) }).toEqual({ width, overflow: 0 });
      expect(await clippedControls(lines)).toEqual([]);
    }
  });
});
