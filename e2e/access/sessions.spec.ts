import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { apiLogIn } from "../support/api.js";
import { logIn, uncaught } from "../support/auth.js";
import { useBrowserWorld } from "../support/browser-world.js";

const ADMIN_EMAIL = "sessions-admin@example.test";
const ADMIN_PASSWORD = "sessions-Admin-Password-1";
const NEW_PASSWORD = "sessions-Changed-Password-2";

describe("the Security page: sessions and the password", () => {
  const world = useBrowserWorld({ admin: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  let page: Page;
  let pageErrors: string[];
  beforeEach(() => {
    ({ page, pageErrors } = world.current());
  });

  test("ends the session of another browser, which lands on login at its next step; changes the password", async () => {
    const { server, openPage } = world.current();
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    const other = await openPage(ADMIN_EMAIL);
    try {
      await other.goto("/help");
      await other.getByRole("heading", { level: 1, name: "Help" }).waitFor();

      // The user menu leads to Security, which lists both sessions, this one marked.
      await page.getByTitle("Account menu").click();
      await page.getByRole("menuitem", { name: "Security" }).click();
      await page.getByRole("heading", { level: 1, name: "Security" }).waitFor();
      const table = page.getByRole("table", { name: "Your sessions" });
      await table.getByRole("row").nth(2).waitFor();
      expect(await table.getByRole("row").count()).toBe(3);
      expect(await table.getByText("This device", { exact: true }).count()).toBe(1);

      await table.getByRole("button", { name: /^End session/ }).click();
      await page.getByText(/^The session on .+ was ended\.$/).waitFor();
      await table.getByRole("button", { name: /^End session/ }).waitFor({ state: "detached" });

      // The other browser's next step is refused, and it lands on the login page.
      await other.getByRole("link", { name: "Home" }).click();
      await other.getByRole("heading", { level: 1, name: "Login" }).waitFor();
      expect(new URL(other.url()).pathname).toBe("/");
    } finally {
      await other.context().close();
    }

    // Change the password: a wrong current one is the form's error, the right one changes it.
    const form = page.getByRole("region", { name: "Change password" });
    await form.getByLabel(/^Current password/).fill("not the password");
    await form.getByLabel(/^New password/).fill(NEW_PASSWORD);
    await form.getByLabel(/^Confirm new password/).fill(NEW_PASSWORD);
    await form.getByRole("button", { name: "Change password" }).click();
    await form.getByText("Your current password is not correct.").waitFor();
    await form.getByLabel(/^Current password/).fill(ADMIN_PASSWORD);
    await form.getByRole("button", { name: "Change password" }).click();
    await page.getByText("Your password was changed.").waitFor();

    // This session keeps working; the new password signs in, the old one no longer does.
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Security" }).waitFor();
    await apiLogIn(server, ADMIN_EMAIL, NEW_PASSWORD);
    await expect(apiLogIn(server, ADMIN_EMAIL, ADMIN_PASSWORD)).rejects.toThrow();
    expect(uncaught(pageErrors)).toEqual([]);
  });
});
