import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { createClient, createCode, type ApiSession, type CodeFixture } from "../support/api.js";
import { uncaught } from "../support/auth.js";
import { useBrowserWorld } from "../support/browser-world.js";

const ADMIN_EMAIL = "codes-admin@example.test";
const ADMIN_PASSWORD = "codes-Admin-Password-1";

const CODE_SAVED = "Code saved!";
const CODE_FAILED = "Failed to create code, make sure form fields are complete";
const TOO_LONG =
  "Transaction description is too long. Please make sure it is under 60 characters to appear on the bill correctly.";

describe("bill codes", () => {
  // The demo clients have system codes (negative numbers) and postings for the report.
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

  const table = () => page.getByRole("table", { name: "Bill codes" });
  const row = (code: number) =>
    table()
      .getByRole("row")
      .filter({ has: page.getByRole("cell", { name: String(code), exact: true }) });
  const codesShown = async () =>
    (await table().locator("tbody tr td:first-child").allTextContents()).map((text) => text.trim());
  const notification = (text: string) => page.getByRole("alert").filter({ hasText: text });
  const listCodes = async (clientId: number) =>
    (await admin.request<{ results: CodeFixture[] }>("GET", `codes/?client_id=${clientId}`)).results;

  async function openCodes(clientId: number) {
    await page.goto(`/codes?client_id=${clientId}`);
    await page.getByRole("heading", { level: 1, name: "Bill Codes" }).waitFor();
  }

  test("Add Code: the number goes up by one, the description clears, type and taxable stay", async () => {
    const client = await createClient(admin, "Codes Add Client");
    await openCodes(client.id);
    await table().getByText("No codes yet. Add the first one.").waitFor();

    await page.getByRole("button", { name: "Add Code" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Code" });
    const codeInput = dialog.getByLabel(/^Code/);
    const description = dialog.getByLabel(/^Description/);
    const type = dialog.getByRole("combobox", { name: /^Type/ });
    const taxable = dialog.getByLabel("Taxable");
    expect(await codeInput.inputValue()).toBe("1");

    // Incomplete: the red alert, and the type is named.
    await codeInput.fill("500");
    await description.fill("Septic pumping");
    await dialog.getByRole("button", { name: "Save Code" }).click();
    await notification(CODE_FAILED).waitFor();
    await dialog.getByText("This field is required.").waitFor();

    await type.click();
    await page.getByRole("option", { name: "Charge", exact: true }).click();
    await taxable.check();
    await dialog.getByRole("button", { name: "Save Code" }).click();
    await notification(CODE_SAVED).waitFor();
    await expect.poll(() => codeInput.inputValue()).toBe("501");
    expect(await description.inputValue()).toBe("");
    expect(await type.inputValue()).toBe("Charge");
    expect(await taxable.isChecked()).toBe(true);

    await description.fill("Filter cleaning");
    await dialog.getByRole("button", { name: "Save Code" }).click();
    await expect.poll(() => codeInput.inputValue()).toBe("502");

    // A description over 60 characters, and a number in use, are refused with the red alert.
    await description.fill("x".repeat(61));
    await dialog.getByRole("button", { name: "Save Code" }).click();
    await dialog.getByText(TOO_LONG).waitFor();
    await codeInput.fill("500");
    await description.fill("Duplicate");
    await dialog.getByRole("button", { name: "Save Code" }).click();
    await dialog.getByText("A code with this number already exists.").waitFor();
    await notification(CODE_FAILED).waitFor();
    // The failure alert goes after 3 seconds.
    await notification(CODE_FAILED).waitFor({ state: "detached", timeout: 6_000 });

    await dialog.getByRole("button", { name: "Close" }).click();
    await expect.poll(codesShown).toEqual(["500", "501"]);
    const stored = await listCodes(client.id);
    expect(stored.map((code) => [code.code, code.description, code.code_type, code.taxable])).toEqual([
      [500, "Septic pumping", "charge", true],
      [501, "Filter cleaning", "charge", true],
    ]);
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("a row is edited in place: saved, cancelled, and a failed save stays in editing", async () => {
    const client = await createClient(admin, "Codes Edit Client");
    await createCode(admin, client.id, { code: 100, description: "Monthly service", code_type: "charge" });
    const long = "Quarterly inspection of the whole drainage field system";
    await createCode(admin, client.id, { code: 110, description: long, code_type: "charge" });
    await openCodes(client.id);
    await row(100).waitFor();

    // A description of 30 characters or more has a tooltip with the whole text.
    await row(110).getByText(long).hover();
    await page.getByRole("tooltip").filter({ hasText: long }).waitFor();

    await page.getByRole("button", { name: "Edit code 100" }).click();
    const editing = table().locator('tr[data-state="editing"]');
    await editing.getByLabel("Description").fill("Monthly service (new)");
    await editing.getByRole("combobox", { name: "Type" }).click();
    await page.getByRole("option", { name: "Info", exact: true }).click();
    await editing.getByLabel("Taxable").check();
    await editing.getByRole("button", { name: "Save" }).click();
    await notification(CODE_SAVED).waitFor();
    await editing.waitFor({ state: "detached" });
    const saved = row(100);
    expect(await saved.getAttribute("data-state")).toBe("saved");
    expect(await saved.textContent()).toContain("Monthly service (new)");
    expect(await saved.textContent()).toContain("Info");
    expect(await saved.textContent()).toContain("Yes");

    // Cancel discards.
    await page.getByRole("button", { name: "Edit code 100" }).click();
    await editing.getByLabel("Description").fill("Never saved");
    await editing.getByRole("button", { name: "Cancel" }).click();
    await editing.waitFor({ state: "detached" });
    expect(await row(100).textContent()).toContain("Monthly service (new)");

    // A refused save (the number of another code) stays in editing with the reason.
    await page.getByRole("button", { name: "Edit code 100" }).click();
    await editing.getByLabel("Code").fill("110");
    await editing.getByRole("button", { name: "Save" }).click();
    await notification(CODE_FAILED).waitFor();
    await editing.getByText("A code with this number already exists.").waitFor();
    expect(await editing.count()).toBe(1);
    await editing.getByLabel("Code").fill("");
    await editing.getByRole("button", { name: "Save" }).click();
    await editing.getByText("This field is required.").waitFor();
    await editing.getByRole("button", { name: "Cancel" }).click();

    const stored = await listCodes(client.id);
    expect(stored.find((code) => code.code === 100)).toMatchObject({
      description: "Monthly service (new)",
      code_type: "info",
      taxable: true,
    });

    // Delete asks first.
    await page.getByRole("button", { name: "Delete code 110" }).click();
    await page
      .getByRole("dialog", { name: "Delete code" })
      .getByRole("button", { name: "Delete code" })
      .click();
    await expect.poll(codesShown).toEqual(["100"]);
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("mass edit changes the type and taxable of the selected codes; an empty type is left alone", async () => {
    const client = await createClient(admin, "Codes Mass Client");
    for (const [code, description] of [
      [200, "Pumping"],
      [210, "Inspection"],
      [220, "Repairs"],
    ] as const) {
      await createCode(admin, client.id, { code, description, code_type: "charge" });
    }
    await openCodes(client.id);
    await row(220).waitFor();
    expect(await page.getByLabel("Select code 200").count()).toBe(0);

    await page.getByRole("button", { name: "Mass Edit" }).click();
    const bar = page.getByRole("region", { name: "Mass edit" });
    await bar.getByText("Change a field for 0 selected codes").waitFor();
    await page.getByLabel("Select code 200").check();
    await page.getByLabel("Select code 210").check();
    await bar.getByText("Change a field for 2 selected codes").waitFor();
    await bar.getByRole("combobox", { name: "Type" }).click();
    await page.getByRole("option", { name: "Debit adjustment" }).click();
    await bar.getByRole("combobox", { name: "Taxable" }).click();
    await page.getByRole("option", { name: "Taxable", exact: true }).click();
    await bar.getByRole("button", { name: "Save Changes" }).click();
    await notification("Saved changes to 2 codes.").waitFor();
    await expect.poll(async () => row(200).textContent()).toContain("Debit adjustment");
    expect(await row(210).textContent()).toContain("Debit adjustment");
    expect(await row(220).textContent()).toContain("Charge");

    // Only taxable: the type stays as it is.
    await page.getByLabel("Select every code on this page").check();
    await bar.getByText("Change a field for 3 selected codes").waitFor();
    await bar.getByRole("combobox", { name: "Taxable" }).click();
    await page.getByRole("option", { name: "Not taxable" }).click();
    await bar.getByRole("button", { name: "Save Changes" }).click();
    await notification("Saved changes to 3 codes.").waitFor();

    await bar.getByRole("button", { name: "Close Mass Edit" }).click();
    await bar.waitFor({ state: "detached" });
    expect(await page.getByLabel("Select code 200").count()).toBe(0);
    const stored = await listCodes(client.id);
    expect(stored.map((code) => [code.code, code.code_type, code.taxable])).toEqual([
      [200, "debit", false],
      [210, "debit", false],
      [220, "charge", false],
    ]);
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("system codes stay hidden until shown, and cannot be edited", async () => {
    // The first demo client.
    await openCodes(1);
    await row(100).waitFor();
    // The demo codes are named.
    await row(100).getByText("Service", { exact: true }).waitFor();
    await page.screenshot({ path: "/tmp/screens-demo-codes.png", fullPage: true });
    expect((await codesShown()).every((code) => Number(code) > 0)).toBe(true);
    expect(await row(-1).count()).toBe(0);

    await page.getByLabel("Show system codes").check();
    await row(-1).waitFor();
    expect((await codesShown()).slice(0, 4)).toEqual(["-4", "-3", "-2", "-1"]);
    expect(await row(-1).getByText("System").count()).toBe(1);
    expect(await row(-1).getByRole("button").count()).toBe(0);

    // Sorting by code descending puts them last.
    await page.getByRole("button", { name: "Code", exact: true }).click();
    await expect.poll(async () => (await codesShown()).at(-1)).toBe("-4");
    // The filter narrows the list.
    await page.getByLabel("Filter codes").fill("payment");
    await expect.poll(codesShown).toEqual(["210", "200"]);
  });

  test("an admin who has not chosen a client is asked to choose one", async () => {
    await page.goto("/codes");
    await page.getByRole("heading", { level: 1, name: "Bill Codes" }).waitFor();
    await page.getByText("Choose a client first").waitFor();
    expect(await page.getByRole("button", { name: "Add Code" }).count()).toBe(0);
  });

  test("the Codes Report downloads as a PDF named with the date", async () => {
    await openCodes(1);
    await row(100).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Codes Report" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Codes Report \d{4}-\d{2}-\d{2}\.pdf$/);
    const file = await download.path();
    const bytes = await readFile(file);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });
});
