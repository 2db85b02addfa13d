import { Secret, TOTP } from "otpauth";
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { logInThroughForm } from "../support/auth.js";
import { useBrowserWorld } from "../support/browser-world.js";

const ADMIN = { email: "guard@cyclebill.example", password: "admin-Second-Factor-1" };

/** The authenticator app's code, `steps` of 30 seconds from now (the server takes one either side). */
function codeOf(secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });
}

describe("second factor: an admin under ADMIN_SECOND_FACTOR=required", () => {
  const world = useBrowserWorld({
    admin: ADMIN,
    env: { ADMIN_SECOND_FACTOR: "required" },
    // A busy machine can take minutes to migrate a fresh PGlite.
    startupTimeoutMs: 240_000,
    failOnUncaught: true,
  });
  let page: Page;
  beforeEach(() => {
    ({ page } = world.current());
  });

  const navLabels = async () =>
    (await page.getByRole("navigation").getByRole("link").allTextContents()).map((label) => label.trim());

  async function signOut() {
    await page.getByRole("navigation").getByRole("link", { name: "Signout" }).click();
    await page.getByRole("heading", { name: "Sign Out" }).waitFor();
    await page.goto("/");
    await page.getByRole("heading", { name: "Login" }).waitFor();
  }

  test("is held at enrolment, sets up an app, then signs in with a code or a recovery code", async () => {
    // The password alone lands on the Security page, and the nav offers nothing else.
    await page.goto("/");
    await logInThroughForm(page, ADMIN.email, ADMIN.password);
    await page.waitForURL((url) => url.pathname === "/security");
    await page.getByTestId("enrolment-banner").waitFor();
    await expect.poll(navLabels).toEqual(["Security", "Signout"]);
    // Any other screen sends the admin back.
    await page.goto("/clients");
    await page.waitForURL((url) => url.pathname === "/security");

    // Set up the app: the secret is shown for manual entry; a code from it confirms.
    await page.getByRole("button", { name: "Set up an authenticator app" }).click();
    await page.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    const secret = (await page.getByTestId("totp-secret").textContent())?.trim() ?? "";
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel("6-digit code").fill(codeOf(secret));
    await page.getByRole("button", { name: "Confirm" }).click();
    const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
    await page.getByText("Save your recovery codes now").waitFor();
    const recoveryCodes = (await codes.allTextContents()).map((code) => code.trim());
    expect(recoveryCodes).toHaveLength(10);
    // Confirmed: the hold is over, and the caller stayed signed in.
    await expect.poll(navLabels).toContain("Clients");
    await page.getByRole("button", { name: "I saved them" }).click();
    await page.getByTestId("recovery-codes-left").getByText("10 recovery codes left.").waitFor();
    await signOut();

    // The password, then the code from the app.
    await logInThroughForm(page, ADMIN.email, ADMIN.password);
    await page.getByText("Enter the 6-digit code from your authenticator app.").waitFor();
    await page.getByLabel("6-digit code").fill(codeOf(secret, 1));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL((url) => url.pathname === "/home");
    await expect.poll(navLabels).toContain("Admin Processing");
    await signOut();

    // The password, then a recovery code instead.
    await logInThroughForm(page, ADMIN.email, ADMIN.password);
    await page.getByRole("button", { name: "Use a recovery code instead" }).click();
    await page.getByLabel("Recovery code").fill(recoveryCodes[0] ?? "");
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL((url) => url.pathname === "/home");
    await page.goto("/security");
    await page.getByTestId("recovery-codes-left").getByText("9 recovery codes left.").waitFor();
  }, 180_000);
});
