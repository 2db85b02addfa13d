import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import {
  createClient,
  createCode,
  createCustomers,
  type ApiSession,
  type ClientFixture,
  type CustomerFixture,
} from "../support/api.js";
import { useAdminBrowser } from "../support/admin-browser.js";

const ADMIN_EMAIL = "batch-admin@example.test";
const ADMIN_PASSWORD = "batch-Admin-Password-1";

const MISSING_CODE = "You must fill in a group code.";
const ZERO_CREATED =
  "0 transactions were created please check the creation criteria and be sure a code and group are selected";

type Entry = {
  customer: number;
  amount: string;
  rate: string;
  transaction_type: string;
  serviceDate: string;
};

describe("Add Transactions by Group", () => {
  const session = useAdminBrowser(ADMIN_EMAIL, ADMIN_PASSWORD);
  let admin: ApiSession;
  let page: Page;
  beforeEach(() => {
    ({ admin, page } = session.current());
  });

  type World = { client: ClientFixture; customers: Record<string, CustomerFixture>; groupId: number };

  /** A client with the code 101 Water and the group North Route: Ann, Ben, Dee (skip), Cal, Eve (pause). */
  async function makeWorld(name: string): Promise<World> {
    const client = await createClient(admin, name);
    await createCode(admin, client.id, { code: 101, description: "Water", code_type: "charge" });
    const customers = await createCustomers(admin, client.id, [
      ["Ann", "Ash"],
      ["Ben", "Birch"],
      ["Cal", "Cedar"],
      ["Dee", "Dogwood"],
      ["Eve", "Elm"],
      ["Fay", "Fir"],
    ]);
    const group = await admin.request<{ id: number }>("POST", `routes/?client_id=${client.id}`, {
      route_name: "North Route",
    });
    for (const [first, flag] of [
      ["Ann", "standard"],
      ["Ben", "standard"],
      ["Dee", "skip"],
      ["Cal", "standard"],
      ["Eve", "pause"],
    ] as const) {
      await admin.request("POST", `routeplans/?client_id=${client.id}`, {
        route: group.id,
        customer: customers[first]!.id,
        bill_indicator_flag: flag,
      });
    }
    return { client, customers, groupId: group.id };
  }

  const table = () => page.getByRole("table", { name: "Customers to bill" });
  const row = (name: string) => table().getByRole("row").filter({ hasText: name });
  const ledger = async (world: World) =>
    (await admin.request<{ results: Entry[] }>("GET", `transactions/?client_id=${world.client.id}&limit=100`))
      .results;

  async function open(world: World) {
    await page.goto(`/transactions/addByRoute?client_id=${world.client.id}`);
    await page.getByRole("heading", { level: 1, name: "Add Transactions by Group" }).waitFor();
  }

  async function chooseGroup(name: string) {
    await page.getByRole("combobox", { name: "Group" }).click();
    await page.getByRole("option", { name }).click();
  }

  async function chooseCode() {
    const input = page.getByRole("textbox", { name: "Code" });
    await input.click();
    await input.fill("101");
    await page.getByRole("option", { name: /101 · Water/ }).click();
  }

  const names = async () =>
    (await table().locator("tbody tr td:nth-child(4)").allTextContents()).map((text) => text.trim());

  test("lists the standard members in stop order, omits one, prices one, and posts the batch", async () => {
    const world = await makeWorld("Batch Group Client");
    await open(world);
    await expect.poll(() => table().textContent()).toContain("Choose a group");
    await chooseGroup("North Route");
    // Skip (Dee) and pause (Eve) members are not listed; the rest keep their stops.
    await expect.poll(names).toEqual(["Ann Ash", "Ben Birch", "Cal Cedar"]);
    await chooseCode();
    await page.getByRole("textbox", { name: "Default amount" }).fill("12.50");
    await expect.poll(() => page.getByLabel("Amount for Ann Ash").inputValue()).toBe("12.50");

    await row("Ben Birch").getByRole("switch", { name: "Included" }).click();
    await row("Ben Birch").getByText("Omitted").waitFor();
    await page.getByLabel("Amount for Cal Cedar").fill("20.00");
    await page.getByText("2 of 3 customers included · total $32.50").waitFor();

    // The filter only narrows the list.
    await page.getByRole("textbox", { name: "Filter customers" }).fill("cal");
    await expect.poll(names).toEqual(["Cal Cedar"]);
    await page.getByRole("textbox", { name: "Filter customers" }).fill("");
    await expect.poll(names).toHaveLength(3);

    // Hold the request until the busy overlay has been seen.
    let release = () => undefined as void;
    const overlaySeen = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/transactionsroutes/**", async (route) => {
      await overlaySeen;
      await route.continue();
    });
    await page.getByRole("button", { name: "Add Transactions" }).click();
    await page.getByText(/Please do not reload or leave this page/).waitFor();
    release();
    const success = page
      .getByRole("alert")
      .filter({ hasText: "2 route transactions were created: Water — group North Route, total $32.50" });
    await success.waitFor();
    await page.screenshot({ path: "/tmp/web6-add-by-group.png", fullPage: true });
    await page.getByText(/Please do not reload or leave this page/).waitFor({ state: "hidden" });

    const entries = await ledger(world);
    expect(
      entries
        .map((entry) => ({ customer: entry.customer, amount: entry.amount, type: entry.transaction_type }))
        .sort((a, b) => a.customer - b.customer),
    ).toEqual([
      { customer: world.customers.Ann!.id, amount: "12.50", type: "route" },
      { customer: world.customers.Cal!.id, amount: "20.00", type: "route" },
    ]);
  });

  test("an archived member shows as archived on Group Admin and the report, and the batch names it", async () => {
    const world = await makeWorld("Batch Archived Client");
    const fay = world.customers.Fay!;
    await admin.request("POST", `routeplans/?client_id=${world.client.id}`, {
      route: world.groupId,
      customer: fay.id,
      bill_indicator_flag: "standard",
    });
    // Fay has no balance, so this archives her at once.
    await admin.request("DELETE", `customers/${fay.id}/?client_id=${world.client.id}`);

    // Group Admin: her row says Archived, not Standard.
    await page.goto(`/routes?client_id=${world.client.id}`);
    await page.getByRole("region", { name: "Groups" }).getByText("North Route").click();
    const members = page.getByRole("table", { name: "Customers in the group" });
    const fayRow = members.getByRole("row").filter({ hasText: "Fay Fir" });
    await fayRow.getByText("Archived", { exact: true }).waitFor();
    expect(await fayRow.getByText("Standard", { exact: true }).count()).toBe(0);
    await page.screenshot({ path: "/tmp/screens-group-admin-archived.png", fullPage: true });

    // The Group Report prints her status as Archived.
    const origin = new URL(page.url()).origin;
    const response = await fetch(
      `${origin}/api/pdf/route-reports/${world.groupId}?client_id=${world.client.id}`,
      {
        headers: { Authorization: `Bearer ${admin.token}` },
      },
    );
    expect(response.status).toBe(200);
    const pdfPath = "/tmp/screens-group-report-archived.pdf";
    await writeFile(pdfPath, Buffer.from(await response.arrayBuffer()));
    const { stdout } = await promisify(execFile)("pdftotext", ["-layout", pdfPath, "-"]);
    const fayLine = stdout.split("\n").find((line) => line.includes("Fay Fir")) ?? "";
    expect(fayLine).toContain("Archived");
    expect(fayLine).not.toContain("Standard");

    // Add by group marks her, posts to her anyway, and the result names her with the reason.
    await open(world);
    await chooseGroup("North Route");
    await expect
      .poll(names)
      .toEqual(["Ann Ash", "Ben Birch", "Cal Cedar", "Fay FirArchived, will be left out"]);
    await chooseCode();
    await page.getByRole("textbox", { name: "Default amount" }).fill("5");
    await page.getByRole("button", { name: "Add Transactions" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "3 route transactions were created: Water — group North Route, total $15.00" })
      .filter({ hasText: `1 customer was left out: ${fay.customer_no} Fay Fir (archived).` })
      .waitFor();
    await page.screenshot({ path: "/tmp/screens-add-by-group-archived.png", fullPage: true });
    const posted = (await ledger(world)).map((entry) => entry.customer);
    expect(posted).not.toContain(fay.id);
    expect(posted).toHaveLength(3);
  });

  test("quantity and units price each row as rate times quantity", async () => {
    const world = await makeWorld("Batch Qty Client");
    await open(world);
    await chooseGroup("North Route");
    await chooseCode();
    await page.getByRole("switch", { name: "Show Qty and Units" }).click();
    await page.getByRole("textbox", { name: "Default rate" }).fill("4");
    await page.getByRole("textbox", { name: "Default quantity" }).fill("3");
    await page.getByLabel("Quantity for Ben Birch").fill("2");
    await page.getByText("3 of 3 customers included · total $32.00").waitFor();
    await page.getByRole("button", { name: "Add Transactions" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "3 route transactions were created: Water — group North Route, total $32.00" })
      .waitFor();
    const amounts = (await ledger(world)).map((entry) => entry.amount).sort();
    expect(amounts).toEqual(["12.00", "12.00", "8.00"]);
  });

  test("without a code: the danger toast, and nothing is posted", async () => {
    const world = await makeWorld("Batch Missing Code Client");
    await open(world);
    await chooseGroup("North Route");
    await page.getByRole("textbox", { name: "Default amount" }).fill("5");
    await page.getByRole("button", { name: "Add Transactions" }).click();
    await page.getByText(MISSING_CODE, { exact: true }).waitFor();
    expect(await ledger(world)).toEqual([]);
  });

  test("everyone omitted: the zero-created alert", async () => {
    const world = await makeWorld("Batch Zero Client");
    await open(world);
    await chooseGroup("North Route");
    await chooseCode();
    await page.getByRole("textbox", { name: "Default amount" }).fill("5");
    await page.getByRole("button", { name: "Omit all" }).click();
    await page.getByText("0 of 3 customers included").waitFor();
    await page.getByRole("button", { name: "Add Transactions" }).click();
    await page.getByRole("alert").filter({ hasText: ZERO_CREATED }).waitFor();
    expect(await ledger(world)).toEqual([]);
  });

  test("links to Add to all customers and back", async () => {
    const world = await makeWorld("Batch Links Client");
    await open(world);
    await page.getByRole("link", { name: "Add to all customers" }).click();
    await page.getByRole("heading", { level: 1, name: "Add Transactions for All Customers" }).waitFor();
    expect(new URL(page.url()).searchParams.get("client_id")).toBe(String(world.client.id));
    await page.getByRole("link", { name: "Add by group" }).click();
    await page.getByRole("heading", { level: 1, name: "Add Transactions by Group" }).waitFor();
  });
});
