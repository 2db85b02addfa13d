import { Secret, TOTP } from "otpauth";
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { logInThroughForm } from "../support/auth.js";
import { useBrowserWorld } from "../support/browser-world.js";

const ADMIN_EMAIL = "admin@cyclebill.example";
const STAFF_EMAIL = "staff@greenway.example";
const REASON = "Ticket 4411: Sam lost the phone; called back on the number in the file.";

type Listed<T> = { count: number; results: T[] };
type AuditRow = { action: string; reason: string | null; changes: { field: string }[] };

function codeOf(secret: string): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate();
}

describe("second factor: a client's requirement and an admin's reset", () => {
  const world = useBrowserWorld({ demo: true, api: ADMIN_EMAIL, failOnUncaught: true });
  let page: Page;
  beforeEach(() => {
    ({ page } = world.current());
  });

  const navLabels = async (on: Page) =>
    (await on.getByRole("navigation").getByRole("link").allTextContents()).map((label) => label.trim());

  /** Held at enrolment: the Security page with its banner, and nothing else in the nav. */
  async function expectHeld(on: Page) {
    await on.waitForURL((url) => url.pathname === "/security");
    await on.getByTestId("enrolment-banner").waitFor();
    await expect.poll(() => navLabels(on)).toEqual(["Security", "Signout"]);
  }

  test("a required client holds its staff at enrolment; an admin resets a lost factor with a reason", async () => {
    const { api, login, openPage } = world.current();
    const clients = await api.request<Listed<{ id: number; client_name: string }>>(
      "GET",
      "clients/?limit=100",
    );
    const client = clients.results.find((row) => row.client_name.startsWith("Greenway"));
    if (!client) throw new Error("the demo has no Greenway client");
    const admin = login(ADMIN_EMAIL);
    const staff = login(STAFF_EMAIL);

    // The admin switches the requirement on in the client's editor.
    await page.goto("/");
    await logInThroughForm(page, admin.email, admin.password);
    await page.waitForURL((url) => url.pathname !== "/");
    await page.goto(`/clients/${client.id}`);
    await page.getByRole("tab", { name: /^Status/ }).click();
    const requirement = page.getByTestId("second-factor-requirement");
    const toggle = requirement.getByRole("switch", {
      name: "Require a second factor of this client's users",
    });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await expect.poll(() => toggle.isDisabled()).toBe(false);

    // The staff user's password alone now lands on enrolment.
    const staffPage = await openPage();
    try {
      await staffPage.goto("/");
      await logInThroughForm(staffPage, staff.email, staff.password);
      await expectHeld(staffPage);
      await staffPage.getByRole("button", { name: "Set up an authenticator app" }).click();
      const secret = (await staffPage.getByTestId("totp-secret").textContent())?.trim() ?? "";
      await staffPage.getByLabel("6-digit code").fill(codeOf(secret));
      await staffPage.getByRole("button", { name: "Confirm" }).click();
      await staffPage.getByText("Save your recovery codes now").waitFor();
      await expect.poll(() => navLabels(staffPage)).toContain("Home");
      await staffPage.getByRole("button", { name: "I saved them" }).click();

      // The phone is lost: the admin resets the factor from the client's users, giving a reason.
      await page.getByRole("tab", { name: /^User Management/ }).click();
      const users = page.getByRole("table", { name: "Users" });
      await users.getByRole("button", { name: `Reset second factor of ${STAFF_EMAIL}` }).click();
      const dialog = page.getByRole("dialog", { name: "Reset second factor" });
      const confirm = dialog.getByRole("button", { name: "Reset second factor" });
      expect(await confirm.isDisabled()).toBe(true);
      await dialog.getByLabel(/^Reason/).fill(REASON);
      await confirm.click();
      await page
        .getByText(
          `${STAFF_EMAIL}: The user's second factor was removed; they set up a new one at their next sign-in.`,
        )
        .waitFor();

      // The staff user's session ended: the next step lands on login, and signing in holds them again.
      await staffPage.getByRole("link", { name: "Home" }).click();
      await staffPage.getByRole("heading", { level: 1, name: "Login" }).waitFor();
      await logInThroughForm(staffPage, staff.email, staff.password);
      await expectHeld(staffPage);
    } finally {
      await staffPage.context().close();
    }

    // The trail has the reset with the admin's reason, on the client's History tab too.
    const staffUser = (
      await api.request<Listed<{ id: number; email: string }>>(
        "GET",
        `users/?client_id=${client.id}&limit=100`,
      )
    ).results.find((user) => user.email === STAFF_EMAIL);
    const trail = await api.request<Listed<AuditRow>>(
      "GET",
      `audit/?client_id=${client.id}&record_kind=user&record_id=${staffUser?.id ?? 0}`,
    );
    const reset = trail.results.find((row) => row.reason === REASON);
    expect(reset?.changes.map((change) => change.field)).toContain("recovery_codes");

    // Switching the requirement off lets the user in with the password alone again.
    await page.getByRole("tab", { name: /^Status/ }).click();
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(false);
    const again = await openPage();
    try {
      await again.goto("/");
      await logInThroughForm(again, staff.email, staff.password);
      await again.waitForURL((url) => url.pathname === "/home");
    } finally {
      await again.context().close();
    }
  }, 180_000);
});
