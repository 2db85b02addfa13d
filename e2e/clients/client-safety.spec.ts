import path from "node:path";
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { createClient, type ApiSession } from "../support/api.js";
import { demoLogin, logIn, uncaught, type DemoLogin } from "../support/auth.js";
import { SCREENSHOT_DIR } from "../support/browser.js";
import { useBrowserWorld } from "../support/browser-world.js";

// Issue 30: the provider's decisions are read-only for a client's owner, and a client with books
// cannot be deleted (the dialog says what it holds before any button).

const ADMIN_EMAIL = "safety-admin@example.test";
const ADMIN_PASSWORD = "safety-Admin-Password-1";

describe("the provider's fields and the client delete refusal", () => {
  const world = useBrowserWorld({
    demo: true,
    admin: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    api: ADMIN_EMAIL,
  });
  let logins: readonly DemoLogin[] = [];
  let admin: ApiSession;
  let page: Page;
  let pageErrors: string[];
  beforeEach(() => {
    ({ logins, api: admin, page, pageErrors } = world.current());
  });

  const tab = (name: string) => page.getByRole("tab", { name: new RegExp(`^${name}`) });
  const field = (label: string) =>
    page.getByLabel(new RegExp(`^${label}( \\*)?$`)).and(page.locator("input, textarea"));
  const readOnly = async (label: string) => (await field(label).getAttribute("readonly")) !== null;
  // A Select's input is always readonly (one picks from its list); a read-only one is drawn filled.
  const locked = async (label: string) => (await field(label).getAttribute("data-variant")) === "filled";
  const shot = (name: string) => page.screenshot({ path: path.join(SCREENSHOT_DIR, name), fullPage: true });

  test("the owner sees the provider's fields read-only and edits the rest", async () => {
    const owner = demoLogin(logins, "owner@greenway.example");
    await logIn(page, owner.email, owner.password);
    await page.goto("/settings");
    await page.getByText("Greenway Lawn & Garden · Client 1001").waitFor();
    expect(await readOnly("Client number")).toBe(true);
    expect(await readOnly("Gateway account ID")).toBe(true);
    expect(await readOnly("Client name")).toBe(false);

    await tab("Status").click();
    await page.getByText("Status and inactive flag are set by the provider.").waitFor();
    await page.getByText("Bill criteria, fulfilment and process type are set by the provider.").waitFor();
    for (const label of [
      "Status",
      "Inactive flag",
      "Cycle processing day",
      "Bill criteria",
      "Bill fulfilment",
      "Process type",
    ]) {
      expect(await locked(label), label).toBe(true);
    }
    for (const label of ["Finance flag", "Fiscal year reset month"]) {
      expect(await locked(label), label).toBe(false);
    }
    for (const label of ["Client start date", "Code set"]) {
      expect(await readOnly(label), label).toBe(false);
    }
    // The bulk pull fields are the admins' alone (the spec shows them to admins only).
    expect(await page.getByText("Bulk pull duration").count()).toBe(0);
    await shot("client-safety-owner-status.png");
    // A read-only select does not open.
    await field("Status").click();
    expect(await page.getByRole("option", { name: /^D · Disabled/ }).count()).toBe(0);

    await field("Code set").fill("B2");
    await page.getByRole("button", { name: "Save Client" }).click();
    await page.getByRole("alert").filter({ hasText: "Client successfuly saved" }).waitFor();
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("a client with books cannot be deleted; an empty one deletes once its name is typed", async () => {
    await createClient(admin, "Empty Acres");
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.goto("/clients");
    const table = page.getByRole("table", { name: "Clients" });
    await table.getByRole("cell", { name: "Greenway Lawn & Garden", exact: true }).waitFor();

    await page.getByRole("button", { name: "Delete Greenway Lawn & Garden" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete client" });
    const refusal = dialog.getByRole("alert").filter({ hasText: "This client cannot be deleted" });
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(
      /Greenway Lawn & Garden cannot be deleted: it holds [\d,]+ ledger entries.* [\d,]+ statements.*\. Make it inactive instead/,
    );
    await dialog.getByRole("list", { name: "What the client holds" }).waitFor();
    expect(await dialog.getByRole("button", { name: "Delete client" }).count()).toBe(0);
    await shot("client-safety-delete-refused.png");
    await dialog.getByRole("button", { name: "Open client to make it inactive" }).click();
    await page.getByRole("heading", { level: 1, name: "Edit Client" }).waitFor();

    await page.goto("/clients");
    await page.getByLabel("Filter clients").fill("empty acres");
    await table.getByRole("cell", { name: "Empty Acres", exact: true }).waitFor();
    await page.getByRole("button", { name: "Delete Empty Acres" }).click();
    await dialog.getByText("It has no ledger entries, statements or payments.").waitFor();
    const remove = dialog.getByRole("button", { name: "Delete client" });
    expect(await remove.isDisabled()).toBe(true);
    await dialog.getByLabel("Type the client's name to confirm").fill("Empty");
    expect(await remove.isDisabled()).toBe(true);
    await dialog.getByLabel("Type the client's name to confirm").fill("Empty Acres");
    await shot("client-safety-delete-empty.png");
    await remove.click();
    await table.getByText("No clients match").waitFor();
    expect(uncaught(pageErrors)).toEqual([]);
  });
});
