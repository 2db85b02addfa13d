import { addDays } from "@cyclebill/domain";
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import {
  createClient,
  createCode,
  createCustomers,
  postEntry,
  type ApiSession,
  type ClientFixture,
  type CodeFixture,
  type CustomerFixture,
} from "../support/api.js";
import { appToday } from "../support/app-today.js";
import { useAdminBrowser } from "../support/admin-browser.js";

// Issue 41, the Transactions screen: a batch pressed twice, the add row's date after a same-day
// run, its customer, Mass Edit's selection after saving, the totals of a reversal, and the list
// on a phone.

const ADMIN_EMAIL = "trips-admin@example.test";
const ADMIN_PASSWORD = "trips-Admin-Password-1";

type Entry = { id: number; customer: number; amount: string; serviceDate: string; description: string };

describe("what a clerk trips on in Transactions", () => {
  const session = useAdminBrowser(ADMIN_EMAIL, ADMIN_PASSWORD);
  let admin: ApiSession;
  let page: Page;
  let baseUrl: string;
  beforeEach(() => {
    const current = session.current();
    ({ admin, page } = current);
    baseUrl = current.server.baseUrl;
  });

  type World = {
    client: ClientFixture;
    water: CodeFixture;
    check: CodeFixture;
    customers: Record<string, CustomerFixture>;
  };

  /** A client with 101 Water (charge), 900 Check (payment), and Ann, Ben and Cal. */
  async function makeWorld(name: string): Promise<World> {
    const client = await createClient(admin, name);
    const water = await createCode(admin, client.id, {
      code: 101,
      description: "Water",
      code_type: "charge",
    });
    const check = await createCode(admin, client.id, {
      code: 900,
      description: "Check",
      code_type: "payment",
    });
    const customers = await createCustomers(admin, client.id, [
      ["Ann", "Ash"],
      ["Ben", "Birch"],
      ["Cal", "Cedar"],
    ]);
    return { client, water, check, customers };
  }

  const ledger = async (world: World, query = "") =>
    (
      await admin.request<{ results: Entry[] }>(
        "GET",
        `transactions/?client_id=${world.client.id}&limit=100&ordering=id${query}`,
      )
    ).results;

  const pick = async (label: string, text: string, option: RegExp) => {
    const input = page.getByRole("textbox", { name: label });
    await input.click();
    await input.fill(text);
    await page.getByRole("option", { name: option }).click();
  };

  test("a second press of the same group batch asks first, and adds it again only on Yes", async () => {
    const world = await makeWorld("Twice Batch Client");
    const group = await admin.request<{ id: number }>("POST", `routes/?client_id=${world.client.id}`, {
      route_name: "Twice Route",
    });
    for (const first of ["Ann", "Ben", "Cal"])
      await admin.request("POST", `routeplans/?client_id=${world.client.id}`, {
        route: group.id,
        customer: world.customers[first]!.id,
        bill_indicator_flag: "standard",
      });
    await page.goto(`/transactions/addByRoute?client_id=${world.client.id}&route_id=${group.id}`);
    await page.getByRole("heading", { level: 1, name: "Add Transactions by Group" }).waitFor();
    const fill = async () => {
      await pick("Code", "101", /101 · Water/);
      await page.getByRole("textbox", { name: "Default amount" }).fill("12.00");
      await page.getByText("3 of 3 customers included · total $36.00").waitFor();
    };
    await fill();
    await page.getByRole("button", { name: "Add Transactions" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "3 route transactions were created: Water — group Twice Route, total $36.00" })
      .waitFor();
    // Added: the form starts afresh, so pressing again adds nothing.
    expect(await page.getByRole("textbox", { name: "Code" }).inputValue()).toBe("");
    expect(await page.getByRole("textbox", { name: "Default amount" }).inputValue()).toBe("");
    await page.screenshot({ path: "/tmp/batch-added-and-reset.png", fullPage: true });
    await page.getByRole("button", { name: "Add Transactions" }).click();
    await page.getByText("You must fill in a group code.", { exact: true }).waitFor();
    expect(await ledger(world)).toHaveLength(3);

    // The same batch entered again: the server's question, naming who has it; No adds nothing.
    await fill();
    await page.getByRole("button", { name: "Add Transactions" }).click();
    const dialog = page.getByRole("dialog", { name: "Duplicate Transaction Detected" });
    await dialog.getByText(/3 customers already have this entry/).waitFor();
    const text = (await dialog.textContent()) ?? "";
    for (const name of ["Ann Ash", "Ben Birch", "Cal Cedar"]) expect(text).toContain(name);
    // Looked at once the dialog has faded in.
    await dialog.evaluate(
      (element) =>
        new Promise<void>((resolve) => {
          const content = element.closest(".mantine-Modal-content") ?? element;
          const done = () => getComputedStyle(content).opacity === "1";
          const check = () => (done() ? resolve() : requestAnimationFrame(check));
          check();
        }),
    );
    await page.screenshot({ path: "/tmp/batch-duplicate-dialog.png", fullPage: true });
    await dialog.getByRole("button", { name: "No" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await ledger(world)).toHaveLength(3);

    // Yes: added again, on purpose.
    await page.getByRole("button", { name: "Add Transactions" }).click();
    await dialog.getByRole("button", { name: "Yes, add them again" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "3 route transactions were created: Water — group Twice Route, total $36.00" })
      .waitFor();
    expect(await ledger(world)).toHaveLength(6);
  });

  test("after the books are closed through today the add row starts on the first open day, and posts", async () => {
    const world = await makeWorld("Closed Today Client");
    const today = await appToday(baseUrl);
    // What a same-day run leaves: the books closed through today.
    await admin.request("POST", `clients/${world.client.id}/closed-period/close/`, {
      closed_through: today,
      reason: "Same-day run",
    });
    await page.goto(`/transactions/search?client_id=${world.client.id}`);
    await page.getByRole("button", { name: "Add Transaction" }).click();
    const date = page.getByRole("textbox", { name: "New transaction service date" });
    await expect.poll(() => date.inputValue()).toBe(addDays(today, 1));
    await pick("New transaction customer", "Ann", /Ann Ash/);
    await pick("New transaction code", "101", /101 · Water/);
    await page.getByRole("textbox", { name: "New transaction rate" }).fill("8");
    await page.getByRole("button", { name: "Save & New" }).click();
    await page.getByText("Added this session: 1 · Charges $8.00").waitFor();
    expect((await ledger(world)).map((entry) => entry.serviceDate)).toEqual([addDays(today, 1)]);
    // The fresh row starts on the first open day again.
    expect(await date.inputValue()).toBe(addDays(today, 1));
  });

  test("the add row takes the filtered customer and Save & New keeps it", async () => {
    const world = await makeWorld("Filtered Add Client");
    const ben = world.customers.Ben!;
    await postEntry(admin, world.client.id, {
      customer: ben.id,
      code: world.water.id,
      description: "Ben's water",
      rate: "5",
    });
    await page.goto(`/transactions/search?client_id=${world.client.id}`);
    await pick("Filter by customer", "Ben", /Ben Birch/);
    await page.getByRole("button", { name: "Add Transaction" }).click();
    const customer = page.getByRole("textbox", { name: "New transaction customer" });
    expect(await customer.inputValue()).toMatch(/Ben Birch/);
    await pick("New transaction code", "101", /101 · Water/);
    await page.getByRole("textbox", { name: "New transaction rate" }).fill("6");
    await page.getByRole("button", { name: "Save & New" }).click();
    await page.getByText("Added this session: 1 · Charges $6.00").waitFor();
    expect(await customer.inputValue()).toMatch(/Ben Birch/);
    expect((await ledger(world)).map((entry) => entry.customer)).toEqual([ben.id, ben.id]);
  });

  test("Mass Edit clears the selection once saved, so Make Invoice from Selected takes nothing unseen", async () => {
    const world = await makeWorld("Mass Edit Client");
    const ann = world.customers.Ann!;
    for (const [description, rate] of [
      ["Cut one", "10"],
      ["Cut two", "11"],
    ] as const)
      await postEntry(admin, world.client.id, { customer: ann.id, code: world.water.id, description, rate });
    await page.goto(`/transactions/search?client_id=${world.client.id}`);
    const table = page.getByRole("table", { name: "Transactions" });
    await table.getByRole("cell", { name: "Cut two" }).waitFor();
    await page.getByRole("button", { name: "Mass Edit" }).click();
    await page.getByRole("checkbox", { name: "Select all shown" }).check();
    await page.getByRole("heading", { name: "Change a field for 2 selected transactions" }).waitFor();
    await page.getByRole("textbox", { name: "New description" }).fill("Cut, corrected");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await page.getByText("2 transactions updated. The selection was cleared.").waitFor();
    await page.getByRole("heading", { name: "Change a field for 0 selected transactions" }).waitFor();
    expect(await page.getByRole("button", { name: "Make Invoice from Selected" }).isDisabled()).toBe(true);
    expect(await table.getByRole("checkbox", { checked: true }).count()).toBe(0);
    expect((await ledger(world)).map((entry) => entry.description)).toEqual([
      "Cut, corrected",
      "Cut, corrected",
    ]);
  });

  test("the totals count a payment's reversal with the payments", async () => {
    const world = await makeWorld("Totals Phone Client");
    const cal = world.customers.Cal!;
    const charge = await postEntry(admin, world.client.id, {
      customer: cal.id,
      code: world.water.id,
      description: "Water for the whole back garden",
      rate: "100",
    });
    const payment = await postEntry(admin, world.client.id, {
      customer: cal.id,
      code: world.check.id,
      description: "Check",
      rate: "30",
    });
    const invoice = await admin.request<{ id: number }>(
      "POST",
      `transactions/make_invoice/?client_id=${world.client.id}`,
      { ids: [charge.id, payment.id] },
    );
    await admin.request("POST", `invoices/${invoice.id}/close/?client_id=${world.client.id}`, {});
    await admin.request("POST", `transactions/${payment.id}/reversal/?client_id=${world.client.id}`, {});

    await page.goto(`/transactions/search?client_id=${world.client.id}`);
    const totals = page.getByLabel("Totals");
    await expect
      .poll(() => totals.textContent())
      .toBe("3 transactions · Charges $100.00 · Payments and credits $0.00 · Net $100.00");
  });

  test("on a 390 px phone the list is cards: every amount and action on the screen, nothing sideways", async () => {
    const world = await makeWorld("Phone List Client");
    const cal = world.customers.Cal!;
    const charge = await postEntry(admin, world.client.id, {
      customer: cal.id,
      code: world.water.id,
      description: "Water for the whole back garden",
      rate: "100",
    });
    const payment = await postEntry(admin, world.client.id, {
      customer: cal.id,
      code: world.check.id,
      description: "Check",
      rate: "30",
    });
    const invoice = await admin.request<{ id: number }>(
      "POST",
      `transactions/make_invoice/?client_id=${world.client.id}`,
      { ids: [charge.id, payment.id] },
    );
    await admin.request("POST", `invoices/${invoice.id}/close/?client_id=${world.client.id}`, {});
    await admin.request("POST", `transactions/${payment.id}/reversal/?client_id=${world.client.id}`, {});
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/transactions/search?client_id=${world.client.id}`);
    const table = page.getByRole("table", { name: "Transactions" });
    await table.getByText("Water for the whole back garden").waitFor();
    await page.screenshot({ path: "/tmp/transactions-phone-390.png", fullPage: true });
    // Nothing sideways: the list fits, and each entry's amount and actions are on the screen.
    const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(fits).toBe(true);
    const tableWidth = await table.evaluate((element) => element.getBoundingClientRect().right);
    expect(tableWidth).toBeLessThanOrEqual(390);
    for (const control of await table.getByRole("button").all()) {
      const box = await control.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    }
    const amounts = await table.locator('td[data-label="Amount"]').all();
    expect(amounts).toHaveLength(3);
    for (const amount of amounts) {
      const box = await amount.boundingBox();
      expect(box && box.x + box.width <= 390).toBe(true);
    }
  });
});
