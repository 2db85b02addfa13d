import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { apiLogIn, createClient, type ApiSession } from "../support/api.js";
import { demoLogin, logIn, uncaught, type DemoLogin } from "../support/auth.js";
import { useBrowserWorld } from "../support/browser-world.js";
import type { RunningServer } from "../support/server.js";

const ADMIN_EMAIL = "clients-admin@example.test";
const ADMIN_PASSWORD = "clients-Admin-Password-1";

const SAVED = "Client successfuly saved";
const SAVE_FAILED = "Error saving client info please check form and/or try again.";
const DOUBLE_BILLING =
  "You cannot change the cycle processing day to a later date in the same month as it would cause double billing.";

type ClientBody = Record<string, unknown> & { id: number; has_blue_pay_key: boolean };

describe("clients and the client editor", () => {
  const world = useBrowserWorld({
    demo: true,
    admin: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    api: ADMIN_EMAIL,
  });
  let server: RunningServer;
  let logins: readonly DemoLogin[] = [];
  let admin: ApiSession;
  let page: Page;
  let pageErrors: string[];
  beforeEach(() => {
    ({ server, logins, api: admin, page, pageErrors } = world.current());
  });

  const heading = (name: string) => page.getByRole("heading", { level: 1, name, exact: true });
  const tab = (name: string) => page.getByRole("tab", { name: new RegExp(`^${name}`) });
  const alert = (text: string) => page.getByRole("alert").filter({ hasText: text });
  // Mantine marks required labels with " *", so labels are matched from their start; a select's
  // option list carries its label too, so only inputs count.
  const field = (label: string) =>
    page.getByLabel(new RegExp(`^${label}( \\*)?$`)).and(page.locator("input, textarea"));
  const choose = async (label: string, option: string | RegExp) => {
    await field(label).click();
    await page.getByRole("option", { name: option }).click();
  };
  const saveClient = () => page.getByRole("button", { name: "Save Client" }).click();

  test("an admin adds a client, fills every tab with the spec's validation, and saves", async () => {
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.goto("/clients");
    await heading("Clients").waitFor();
    await page.getByRole("cell", { name: "Greenway Lawn & Garden", exact: true }).waitFor();

    // Add Client: the name is required, with at least 3 characters.
    await page.getByRole("button", { name: "Add Client" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Client" });
    await dialog.getByRole("button", { name: "Add Client" }).click();
    await dialog.getByText("This field is required.").waitFor();
    await dialog.getByLabel(/^Client name/).fill("Ab");
    await dialog.getByRole("button", { name: "Add Client" }).click();
    await dialog.getByText("Ensure this field has at least 3 characters.").waitFor();
    await dialog.getByLabel(/^Client name/).fill("Acme Septic Service");
    await dialog.getByRole("button", { name: "Add Client" }).click();

    // The editor of the new client opens.
    await heading("Edit Client").waitFor();
    const clientId = Number(/\/clients\/(\d+)/.exec(new URL(page.url()).pathname)?.[1]);
    expect(clientId).toBeGreaterThan(0);
    expect(await field("Client name").inputValue()).toBe("Acme Septic Service");
    const tabs = await page.getByRole("tab").allTextContents();
    expect(tabs).toEqual(["Overview", "Message", "Status", "Rates", "User Management", "History"]);

    // Saving an empty address: the spec's messages, and the failure alert.
    await saveClient();
    await alert(SAVE_FAILED).waitFor();
    await page.getByText("Address line 1 required").waitFor();
    await page.getByText("City required").waitFor();
    await page.getByText("State required").waitFor();
    await page.getByText("Must be 5 digits").waitFor();

    await field("Address line 1").fill("12 Industrial Way");
    await field("City").fill("Peoria");
    // The state list holds the spec's 59 entries.
    await field("State").click();
    expect(await page.getByRole("option").count()).toBe(59);
    await page.getByRole("option", { name: "IL · Illinois" }).click();
    await field("ZIP").fill("6160");
    // Phones are typed into the mask; an incomplete one is refused with the spec's message.
    await field("Business phone").pressSequentially("309555");
    expect(await field("Business phone").inputValue()).toBe("(309)-555");
    await field("Alternate ZIP").fill("12a45");

    await tab("Message").click();
    await field("Terms").fill("Net 30 days from the bill");
    await saveClient();
    await alert(SAVE_FAILED).waitFor();
    await page.getByText("Terms max length 20 characters").waitFor();
    await tab("Overview").click();
    await page.getByText("(309)-555 is not a valid phone number").waitFor();
    expect(await page.getByText("Must be 5 digits").count()).toBe(2);

    // Fix everything and fill the rest of each tab.
    await field("ZIP").fill("61602");
    await field("Alternate ZIP").fill("61603");
    await field("Business phone").fill("");
    await field("Business phone").pressSequentially("3095550123");
    expect(await field("Business phone").inputValue()).toBe("(309)-555-0123");
    await field("Primary contact cell").pressSequentially("(309) 555 0199");
    expect(await field("Primary contact cell").inputValue()).toBe("(309)-555-0199");
    await field("Email").fill("office@acme-septic.example");
    await field("Business owner").fill("Ann Acme");
    await choose("Alternate state", "WI · Wisconsin");
    await field("Gateway account ID").fill("100200300");
    await page.getByLabel("Secret key").fill("gateway-secret-123");
    await expect.poll(() => page.getByTestId("bluepay-key-status").textContent()).toBe("No key set");

    await tab("Message").click();
    await field("Terms").fill("Net 30");
    await field("Bill message line 1").fill("Thank you for choosing Acme.");
    await field("Bulk insert message").fill("Spring special: 10% off pumping.");
    await field("Client message").fill("Welcome to Acme billing.");

    await tab("Status").click();
    await choose("Status", "P · Pending");
    await choose("Inactive flag", "C · No Bills");
    await choose("Cycle processing day", "12");
    await choose("Fiscal year reset month", "July");
    await choose("Finance flag", "2 · Begin at 60 days overdue");
    await page.getByLabel("30 days fee type").getByText("Percent").click();
    await page.getByLabel("30 days percent").fill("1.5");
    await page.getByLabel("60 days flat amount").fill("5.00");

    await tab("Rates").click();
    // Admins edit the rates.
    expect(await field("Basic fee").getAttribute("readonly")).toBeNull();
    await field("Basic fee").fill("25.00");
    await field("Mailed bill rate").fill("0.45");

    await saveClient();
    const saved = alert(SAVED);
    await saved.waitFor();
    expect(await alert(SAVE_FAILED).count()).toBe(0);
    // The saved alert shows for 3 seconds.
    await saved.waitFor({ state: "detached", timeout: 6_000 });

    const stored = await admin.request<ClientBody>("GET", `clients/${clientId}/`);
    expect(stored).toMatchObject({
      address1: "12 Industrial Way",
      city: "Peoria",
      state: "IL",
      zip: "61602",
      alternate_zip: "61603",
      alternate_state: "WI",
      bus_phone: "(309)-555-0123",
      cell_phone: "(309)-555-0199",
      terms_message: "Net 30",
      bi_message: "Spring special: 10% off pumping.",
      client_message: "Welcome to Acme billing.",
      status_code: "P",
      inactive_flag: "C",
      normal_cycle: 12,
      fiscal_year_reset_month: 7,
      finance_flag: "2",
      thirtyDayRateOrPercent: "percent",
      basic_fee: "25.00",
      has_blue_pay_key: true,
    });
    expect(Number(stored.finance_rate_30_day)).toBe(1.5);
    expect(Number(stored.day_charge_60_day)).toBe(5);
    expect(Number(stored.mailed_bill_rate)).toBe(0.45);
    // The key is never sent back; the editor only says that one is set.
    expect(JSON.stringify(stored)).not.toContain("gateway-secret-123");
    await tab("Overview").click();
    await expect.poll(() => page.getByTestId("bluepay-key-status").textContent()).toBe("A key is set");
    expect(await page.getByLabel("Secret key").inputValue()).toBe("");

    // User Management: add the client's owner.
    await tab("User Management").click();
    await page.getByRole("button", { name: "Add User" }).click();
    const userDialog = page.getByRole("dialog", { name: "Add User" });
    await userDialog.getByRole("button", { name: "Add User" }).click();
    expect(await userDialog.getByText("This field is required.").count()).toBe(3);
    await userDialog.getByLabel(/^First name/).fill("Ann");
    await userDialog.getByLabel(/^Last name/).fill("Acme");
    await userDialog.getByLabel(/^Email/).fill("ann@acme-septic.example");
    await userDialog.getByText("Owner", { exact: true }).click();
    await userDialog.getByRole("button", { name: "Add User" }).click();
    const users = page.getByRole("table", { name: "Users" });
    await users.getByRole("cell", { name: "ann@acme-septic.example", exact: true }).waitFor();
    const row = users.getByRole("row").filter({ hasText: "ann@acme-septic.example" });
    expect(await row.textContent()).toContain("Owner");
    expect(await row.textContent()).toContain("Invited");

    // History: the save is in the client's trail, the gateway secret only as set.
    await tab("History").click();
    const history = page.getByRole("table", { name: "History" });
    const update = history.getByRole("row").filter({ hasText: "client.update" }).first();
    await update.waitFor();
    expect(await update.textContent()).toContain(ADMIN_EMAIL);
    const secret = page
      .getByRole("table", { name: "Changes of client.update" })
      .getByRole("row")
      .filter({ has: page.getByRole("cell", { name: "bluepay_secret_key_encrypted", exact: true }) })
      .first();
    expect(await secret.getByRole("cell").allTextContents()).toEqual([
      "bluepay_secret_key_encrypted",
      "—",
      "••••",
    ]);
    expect(await history.textContent()).not.toContain("gateway-secret-123");
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("a later cycle day after the cycle ran shows the double-billing alert", async () => {
    if (!server) throw new Error("setup failed");
    const client = await createClient(admin, "Cycle Rule Client");
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    // The cycle cannot be made to have run through the API, so the server's answer is stubbed.
    await page.route(`**/api/clients/${client.id}/`, (route) =>
      route.request().method() === "PUT"
        ? route.fulfill({ status: 400, json: { normal_cycle: [DOUBLE_BILLING] } })
        : route.fallback(),
    );
    await page.goto(`/clients/${client.id}`);
    await heading("Edit Client").waitFor();
    await field("Address line 1").fill("1 Main St");
    await field("City").fill("Austin");
    await choose("State", "TX · Texas");
    await field("ZIP").fill("73301");
    await tab("Status").click();
    await choose("Cycle processing day", "27");
    await saveClient();
    const failed = alert(SAVE_FAILED);
    await failed.waitFor();
    expect(await failed.textContent()).toContain(DOUBLE_BILLING);
    // The field says it too.
    expect(await page.getByText(DOUBLE_BILLING).count()).toBe(2);
  });

  test("the list filters, sorts, pages, deletes with confirmation and selects a client", async () => {
    for (const name of ["Zulu Lawn", "Yankee Water", "Xray Pools"]) await createClient(admin, name);
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.goto("/clients");
    const table = page.getByRole("table", { name: "Clients" });
    await table.getByRole("cell", { name: "Zulu Lawn", exact: true }).waitFor();
    const names = () => table.locator("tbody tr td:nth-child(2)").allTextContents();

    // Sorted by client number by default; a header click sorts by that column.
    expect((await names())[0]).toBe("Greenway Lawn & Garden");
    const byName = (list: string[]) => [...list].sort((a, b) => a.localeCompare(b));
    await page.getByRole("button", { name: /^Name/ }).click();
    // (The fixtures were made Z to X, so the default order is not by name.)
    await expect
      .poll(async () => {
        const shown = await names();
        return shown.join("|") === byName(shown).join("|");
      })
      .toBe(true);
    await page.getByRole("button", { name: /^Name/ }).click();
    await expect
      .poll(async () => {
        const shown = await names();
        return shown[0] === "Zulu Lawn" && shown.join("|") === byName(shown).reverse().join("|");
      })
      .toBe(true);

    // Rows per page and the go-to-page box.
    await page.getByRole("combobox", { name: "Rows per page" }).click();
    await page.getByRole("option", { name: "5", exact: true }).click();
    await expect.poll(async () => (await names()).length).toBe(5);
    await page.getByLabel("Go to page").fill("9");
    await page.getByRole("button", { name: "Go", exact: true }).click();
    await alert("Please enter a valid page number").waitFor();
    await page.getByLabel("Go to page").fill("2");
    await page.getByRole("button", { name: "Go", exact: true }).click();
    // Page 2 replaces page 1's rows (Zulu Lawn leads page 1 in this order).
    await expect.poll(async () => (await names()).includes("Zulu Lawn")).toBe(false);
    expect((await names()).length).toBeGreaterThan(0);

    // The filter asks the server.
    await page.getByLabel("Filter clients").fill("yank");
    await expect.poll(names).toEqual(["Yankee Water"]);

    // Delete asks first; cancelling keeps the client.
    await page.getByRole("button", { name: "Delete Yankee Water" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete client" });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "detached" });
    expect(await names()).toEqual(["Yankee Water"]);
    await page.getByRole("button", { name: "Delete Yankee Water" }).click();
    // An empty client deletes once its name is typed (client-safety.spec.ts shows the refusal).
    await confirm.getByLabel("Type the client's name to confirm").fill("Yankee Water");
    await confirm.getByRole("button", { name: "Delete client" }).click();
    await table.getByText("No clients match").waitFor();

    // Selecting a client opens its customers.
    await page.getByLabel("Filter clients").fill("harbor");
    await table.getByRole("link", { name: "Harbor Water Co-op" }).click();
    await page.waitForURL((url) => url.pathname === "/customers/manage");
    expect(new URL(page.url()).searchParams.get("client_id")).toMatch(/^\d+$/);
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("the owner edits their client in Settings, with the rates read-only", async () => {
    const owner = demoLogin(logins, "owner@greenway.example");
    await logIn(page, owner.email, owner.password);
    await page.getByRole("navigation").getByRole("link", { name: "Settings" }).click();
    await heading("Settings").waitFor();
    await page.getByText("Greenway Lawn & Garden · Client 1001").waitFor();
    // The client number is the provider's.
    expect(await field("Client number").getAttribute("readonly")).not.toBeNull();

    await tab("Rates").click();
    await page.getByText("Rates are read-only").waitFor();
    for (const label of ["Mailed bill rate", "Basic fee", "Mailed bills"]) {
      expect(await field(label).getAttribute("readonly")).not.toBeNull();
    }
    // The last cycle's usage: each kind of bill at its rate, then the basic fee, and a total of all.
    const usage = page.getByRole("table", { name: "Last cycle's usage" });
    const rows = await usage
      .locator("tbody tr")
      .evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.querySelectorAll("td"), (td) => td.textContent ?? "")),
      );
    const cents = (text: string) => Math.round(Number(text.replace(/[$,]/g, "")) * 100);
    const basicFee = rows.find((row) => row[0] === "Basic fee");
    expect(basicFee?.[3]).toBe("$25.00");
    const total = rows.find((row) => row[0] === "Total");
    const lines = rows.filter((row) => row[0] !== "Total");
    expect(cents(total![3]!)).toBe(lines.reduce((sum, row) => sum + cents(row[3]!), 0));
    // The demo's last run billed bills: the usage is more than the basic fee alone.
    expect(cents(total![3]!)).toBeGreaterThan(2500);

    await tab("Message").click();
    await field("Bill message line 2").fill("Pay online at greenway.example/pay");
    await saveClient();
    await alert(SAVED).waitFor();

    // The owner's client list holds only their client.
    if (!server) throw new Error("setup failed");
    const me = await apiLogIn(server, owner.email, owner.password);
    const list = await me.request<{ results: ClientBody[] }>("GET", "clients/");
    expect(list.results[0]?.bill_message_line_2).toBe("Pay online at greenway.example/pay");

    // Owners manage their users too.
    await tab("User Management").click();
    await page.getByRole("cell", { name: "staff@greenway.example", exact: true }).waitFor();
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("the owner proves the books as a job and watches it finish", async () => {
    const owner = demoLogin(logins, "owner@greenway.example");
    await logIn(page, owner.email, owner.password);
    await page.goto("/settings");
    await heading("Settings").waitFor();
    await tab("Status").click();
    await page.getByRole("heading", { name: "Prove the books" }).waitFor();
    await page.getByRole("button", { name: "Check the books" }).click();
    // The job runs in the server's worker; the card follows it to its result.
    const verdict = page.getByRole("alert").filter({ hasText: "The books balance" });
    await verdict.waitFor({ timeout: 30_000 });
    expect(await verdict.textContent()).toMatch(/\d+ customers checked .*every balance equals its ledger/);
    // Reopened later, the page shows the last check.
    await page.reload();
    await tab("Status").click();
    await verdict.waitFor();
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("staff see Settings read-only, without user management", async () => {
    const staff = demoLogin(logins, "staff@greenway.example");
    await logIn(page, staff.email, staff.password);
    await page.goto("/settings");
    await heading("Settings").waitFor();
    await page.getByText("View only").waitFor();
    expect(await page.getByRole("button", { name: "Save Client" }).count()).toBe(0);
    expect(await page.getByRole("tab", { name: "User Management" }).count()).toBe(0);
    expect(await field("City").getAttribute("readonly")).not.toBeNull();
  });

  test("an admin without a client is asked to choose one in Settings; other users cannot open Clients", async () => {
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.goto("/settings");
    await heading("Settings").waitFor();
    await page.getByText("Choose a client first").waitFor();

    const owner = demoLogin(logins, "owner@greenway.example");
    const other = await world.current().openPage();
    try {
      await logIn(other, owner.email, owner.password);
      await other.goto("/clients");
      await other.getByText("Administrators only").waitFor();
    } finally {
      await other.context().close();
    }
  });
});
