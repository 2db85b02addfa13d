import { readFile } from "node:fs/promises";
import { NO_GROUP_SELECTED_MESSAGE } from "@cyclebill/domain";
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import type { ApiSession } from "../support/api.js";
import { uncaught } from "../support/auth.js";
import { useBrowserWorld } from "../support/browser-world.js";

const ADMIN_EMAIL = "groups-admin@example.test";
const ADMIN_PASSWORD = "groups-Admin-Password-1";
// The first demo client (Greenway Lawn & Garden) and its customers.
const CLIENT_ID = 1;

type GroupDetail = { id: number; route_name: string; details: { customer_label: string; stop: number }[] };

describe("Group Admin", () => {
  // Customers come with the demo data (the API has no customer create yet).
  const world = useBrowserWorld({
    demo: true,
    admin: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    api: ADMIN_EMAIL,
    signIn: ADMIN_EMAIL,
  });
  let admin: ApiSession;
  let page: Page;
  let pageErrors: string[];
  beforeEach(() => {
    ({ api: admin, page, pageErrors } = world.current());
  });

  const detail = () => page.getByRole("region", { name: "Group detail" });
  const members = () => page.getByRole("table", { name: "Customers in the group" });
  const positions = async () => (await members().getByTestId("position").allTextContents()).map(Number);
  const memberNames = async () =>
    (await members().locator("tbody tr td:nth-child(2)").allTextContents()).map((text) => text.trim());
  const memberRow = (name: string) => members().getByRole("row").filter({ hasText: name });
  const addForm = () => page.getByRole("form", { name: "Add a customer to a group" });
  const alert = (text: string) => page.getByRole("alert").filter({ hasText: text });

  async function pickCustomer(search: string, option: string) {
    const input = addForm().getByLabel("Customer", { exact: true }).and(page.locator("input"));
    await input.click();
    await input.pressSequentially(search);
    await page.getByRole("option", { name: option }).click();
  }

  async function addCustomer(search: string, option: string, position?: number, status?: string) {
    await pickCustomer(search, option);
    const positionInput = addForm().getByLabel(/^Position/);
    if (position !== undefined) await positionInput.fill(String(position));
    if (status) {
      await addForm().getByRole("combobox", { name: "Processing status" }).click();
      await page.getByRole("option", { name: status, exact: true }).click();
    }
    await addForm().getByRole("button", { name: "Add Customer" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: `${option} was added to` })
      .first()
      .waitFor();
  }

  async function editMember(name: string, position: number | null, status?: string) {
    await members()
      .getByRole("button", { name: `Edit ${name}` })
      .click();
    const editing = members().locator('tr[data-state="editing"]');
    if (position !== null) await editing.getByLabel("Position").fill(String(position));
    if (status) {
      await editing.getByRole("combobox", { name: "Processing status" }).click();
      await page.getByRole("option", { name: status, exact: true }).click();
    }
    await editing.getByRole("button", { name: "Save" }).click();
    await editing.waitFor({ state: "detached" });
  }

  test("an admin who has not chosen a client is asked to choose one", async () => {
    await page.goto("/routes");
    await page.getByRole("heading", { level: 1, name: "Group Admin" }).waitFor();
    await page.getByText("Choose a client first").waitFor();
  });

  test("without a group, adding a customer says no group is selected", async () => {
    await page.goto(`/routes?client_id=${CLIENT_ID}`);
    await page.getByRole("heading", { level: 1, name: "Group Admin" }).waitFor();
    await detail().getByRole("heading", { name: "No group selected" }).waitFor();
    await pickCustomer("anders", "1001 · Ava Anders");
    await addForm().getByRole("button", { name: "Add Customer" }).click();
    await alert(NO_GROUP_SELECTED_MESSAGE).waitFor();

    // Choosing the group in the form keeps the customer and adds them at the end.
    await addForm().getByRole("combobox", { name: "Group" }).click();
    await page.getByRole("option", { name: "South route" }).click();
    await detail().getByRole("heading", { name: "South route" }).waitFor();
    expect(
      await addForm().getByLabel("Customer", { exact: true }).and(page.locator("input")).inputValue(),
    ).toBe("1001 · Ava Anders");
    await addForm().getByRole("button", { name: "Add Customer" }).click();
    const added = alert("1001 · Ava Anders was added to South route at position");
    await added.waitFor();
    // The end of the group: the position is the new size.
    const position = /at position (\d+)/.exec((await added.textContent()) ?? "")?.[1];
    await detail().getByText(`${position} customers`, { exact: true }).waitFor();
  });

  test("create a group, add customers at positions, reorder, change status, remove, rename, report, delete", async () => {
    await page.goto(`/routes?client_id=${CLIENT_ID}`);
    await page.getByLabel("New group name").fill("Riverside route");
    await page.getByRole("button", { name: "Create Group" }).click();
    await detail().getByRole("heading", { name: "Riverside route" }).waitFor();
    const groupId = Number(new URL(page.url()).searchParams.get("route_id"));
    expect(groupId).toBeGreaterThan(0);
    await detail().getByText("No customers in this group yet.").waitFor();

    // Empty position = the end; a position puts the customer there; too large clamps to the end.
    await addCustomer("1001", "1001 · Ava Anders");
    await addCustomer("1002", "1002 · Ben Hughes");
    await addCustomer("1003", "1003 · Carla Eriksen", 1);
    await addCustomer("1004", "1004 · Dev Brooks", 99, "Pause");
    await expect
      .poll(memberNames)
      .toEqual(["1003 Carla Eriksen", "1001 Ava Anders", "1002 Ben Hughes", "1004 Dev Brooks"]);
    expect(await positions()).toEqual([1, 2, 3, 4]);
    expect(await memberRow("Dev Brooks").textContent()).toContain("Pause");
    await detail().getByText("4 customers", { exact: true }).waitFor();

    // A customer already in the group is refused.
    await pickCustomer("1002", "1002 · Ben Hughes · already in this group");
    await addForm().getByRole("button", { name: "Add Customer" }).click();
    await alert("This customer is already in the group.").waitFor();

    // Moving renumbers everyone: positions stay 1..n without gaps.
    await editMember("1002 Ben Hughes", 1);
    await expect
      .poll(memberNames)
      .toEqual(["1002 Ben Hughes", "1003 Carla Eriksen", "1001 Ava Anders", "1004 Dev Brooks"]);
    expect(await positions()).toEqual([1, 2, 3, 4]);
    await editMember("1003 Carla Eriksen", 4, "Skip");
    await expect
      .poll(memberNames)
      .toEqual(["1002 Ben Hughes", "1001 Ava Anders", "1004 Dev Brooks", "1003 Carla Eriksen"]);
    expect(await positions()).toEqual([1, 2, 3, 4]);
    expect(await memberRow("Carla Eriksen").textContent()).toContain("Skip");
    // Only the status.
    await editMember("1004 Dev Brooks", null, "Standard");
    await expect.poll(async () => memberRow("Dev Brooks").textContent()).toContain("Standard");

    // Removing closes ranks.
    await members().getByRole("button", { name: "Remove 1001 Ava Anders" }).click();
    await page
      .getByRole("dialog", { name: "Remove customer from group" })
      .getByRole("button", { name: "Remove" })
      .click();
    await expect.poll(memberNames).toEqual(["1002 Ben Hughes", "1004 Dev Brooks", "1003 Carla Eriksen"]);
    expect(await positions()).toEqual([1, 2, 3]);

    const stored = await admin.request<GroupDetail>("GET", `routes/${groupId}/?client_id=${CLIENT_ID}`);
    expect(stored.details.map((member) => [member.stop, member.customer_label])).toEqual([
      [0, "1002 Ben Hughes"],
      [1, "1004 Dev Brooks"],
      [2, "1003 Carla Eriksen"],
    ]);

    // Rename.
    await detail().getByRole("button", { name: "Rename" }).click();
    await detail().getByLabel("Group name").fill("Riverside loop");
    await detail().getByRole("button", { name: "Save Name" }).click();
    await detail().getByRole("heading", { name: "Riverside loop" }).waitFor();
    await page.getByRole("region", { name: "Groups" }).getByText("Riverside loop").waitFor();

    // The report keeps the server's file name.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      detail().getByRole("button", { name: "Group Report" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Group Report ${groupId}.pdf`);
    const bytes = await readFile(await download.path());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");

    // Delete asks first.
    await detail().getByRole("button", { name: "Delete Group" }).click();
    await page
      .getByRole("dialog", { name: "Delete group" })
      .getByRole("button", { name: "Delete group" })
      .click();
    await detail().getByRole("heading", { name: "No group selected" }).waitFor();
    expect(await page.getByRole("region", { name: "Groups" }).getByText("Riverside loop").count()).toBe(0);
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("one selected group's panel at a time: switching and deleting leave no stale header", async () => {
    const created = await admin.request<{ id: number }>("POST", `routes/?client_id=${CLIENT_ID}`, {
      route_name: "East route",
    });
    await page.goto(`/routes?client_id=${CLIENT_ID}`);
    const groupList = page.getByRole("region", { name: "Groups" });
    const headings = () => detail().getByRole("heading", { level: 2 }).allTextContents();
    await detail().getByRole("heading", { name: "No group selected" }).waitFor();
    await addForm().getByRole("button", { name: "Add Customer" }).click();
    await alert(NO_GROUP_SELECTED_MESSAGE).waitFor();

    await groupList.getByText("North route", { exact: true }).click();
    await expect.poll(headings).toEqual(["North route"]);
    // The "no group selected" alert goes once a group is picked.
    await expect.poll(() => alert(NO_GROUP_SELECTED_MESSAGE).count()).toBe(0);
    await groupList.getByText("East route", { exact: true }).click();
    await expect.poll(headings).toEqual(["East route"]);
    expect(await detail().getByRole("button", { name: "Group Report" }).count()).toBe(1);
    expect(await detail().getByRole("button", { name: "Delete Group" }).count()).toBe(1);

    // The one Report button is the shown group's.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      detail().getByRole("button", { name: "Group Report" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Group Report ${created.id}.pdf`);

    await detail().getByRole("button", { name: "Delete Group" }).click();
    await page
      .getByRole("dialog", { name: "Delete group" })
      .getByRole("button", { name: "Delete group" })
      .click();
    await expect.poll(headings).toEqual(["No group selected"]);
    await groupList.getByText("South route", { exact: true }).click();
    await expect.poll(headings).toEqual(["South route"]);
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("a large group pages by 15, positions continue on the next page", async () => {
    const groups = await admin.request<{ results: { id: number; route_name: string }[] }>(
      "GET",
      `routes/?client_id=${CLIENT_ID}`,
    );
    const north = groups.results.find((group) => group.route_name === "North route");
    if (!north) throw new Error("demo group missing");
    await page.goto(`/routes?client_id=${CLIENT_ID}`);
    await page.getByRole("region", { name: "Groups" }).getByText("North route").click();
    await detail().getByRole("heading", { name: "North route" }).waitFor();
    await expect.poll(positions).toEqual(Array.from({ length: 15 }, (_, index) => index + 1));

    await detail().getByLabel("Go to page").fill("5");
    await detail().getByRole("button", { name: "Go", exact: true }).click();
    await alert("Please enter a valid page number").waitFor();
    await detail().getByLabel("Go to page").fill("2");
    await detail().getByRole("button", { name: "Go", exact: true }).click();
    await expect.poll(async () => (await positions())[0]).toBe(16);
    expect(new URL(page.url()).searchParams.get("route_id")).toBe(String(north.id));
  });
});
