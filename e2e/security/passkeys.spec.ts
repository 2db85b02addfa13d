import { Secret, TOTP } from "otpauth";
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { logInThroughForm } from "../support/auth.js";
import { axeViolations, formatViolations } from "../support/axe.js";
import { useBrowserWorld } from "../support/browser-world.js";

const ADMIN = { email: "keyholder@cyclebill.example", password: "admin-Passkey-Factor-1" };

describe("passkeys: an admin under ADMIN_SECOND_FACTOR=required", () => {
  const world = useBrowserWorld({
    admin: ADMIN,
    env: { ADMIN_SECOND_FACTOR: "required" },
    // A busy machine can take minutes to migrate a fresh PGlite.
    startupTimeoutMs: 240_000,
    failOnUncaught: true,
  });
  let page: Page;
  let origin: string;
  beforeEach(async () => {
    ({ page } = world.current());
    // Browsers refuse passkeys on an IP address; the server's PUBLIC_URL is http://localhost:PORT.
    origin = world.current().server.baseUrl.replace("127.0.0.1", "localhost");
    // A virtual authenticator stands in for the device (Chrome DevTools Protocol).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
  });

  /** WCAG 2 AA on the page as it stands, once its transitions are at rest. */
  async function expectAccessible(where: string) {
    await page.waitForFunction(() =>
      document.getAnimations().every((animation) => animation.playState !== "running"),
    );
    expect(formatViolations(await axeViolations(page)), `axe violations on ${where}`).toBe("");
  }

  const navLabels = async () =>
    (await page.getByRole("navigation").getByRole("link").allTextContents()).map((label) => label.trim());

  async function signOut() {
    await page.getByRole("navigation").getByRole("link", { name: "Signout" }).click();
    await page.getByRole("heading", { name: "Sign Out" }).waitFor();
    await page.goto(`${origin}/`);
    await page.getByRole("heading", { name: "Login" }).waitFor();
  }

  test("is held at enrolment, adds a passkey instead of an app, signs in with it, and removes it with the password beside an app", async () => {
    await page.goto(`${origin}/`);
    await logInThroughForm(page, ADMIN.email, ADMIN.password);
    await page.waitForURL((url) => url.pathname === "/security");
    await page.getByTestId("enrolment-banner").waitFor();
    await expect.poll(navLabels).toEqual(["Security", "Signout"]);

    // Add a passkey with a name: the hold is over and the caller stayed signed in.
    const panel = page.getByTestId("passkeys-panel");
    await panel.getByLabel("Name for the new passkey").fill("Test laptop");
    await panel.getByRole("button", { name: "Add a passkey" }).click();
    await panel.getByRole("table", { name: "Your passkeys" }).getByText("Test laptop").waitFor();
    await expect.poll(navLabels).toContain("Clients");
    // The only factor of an admin who must keep one cannot be removed.
    expect(await panel.getByRole("button", { name: "Remove passkey Test laptop" }).isDisabled()).toBe(true);
    await expectAccessible("the Security page with a passkey");
    await signOut();

    // The password, then the passkey.
    await logInThroughForm(page, ADMIN.email, ADMIN.password);
    await page.getByText("Use your passkey to finish signing in.").waitFor();
    await expectAccessible("the passkey sign-in step");
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await page.waitForURL((url) => url.pathname === "/home");
    await expect.poll(navLabels).toContain("Admin Processing");
    await page.goto(`${origin}/security`);
    const row = page.getByRole("table", { name: "Your passkeys" }).getByRole("row", { name: /Test laptop/ });
    await expect.poll(async () => (await row.textContent()) ?? "").not.toContain("Never");

    // With an authenticator app beside it, the passkey can go: the current password first.
    await page.getByRole("button", { name: "Set up an authenticator app" }).click();
    const secret = (await page.getByTestId("totp-secret").textContent())?.trim() ?? "";
    await page.getByLabel("6-digit code").fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate());
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByRole("button", { name: "I saved them" }).click();
    await panel.getByRole("button", { name: "Remove passkey Test laptop" }).click();
    const dialog = page.getByRole("dialog", { name: "Remove passkey" });
    await dialog.getByText("“Test laptop” will no longer sign you in").waitFor();
    await dialog.getByLabel("Current password").fill("not the password");
    await dialog.getByRole("button", { name: "Remove" }).click();
    await dialog.getByText(/That password is not right\./).waitFor();
    await dialog.getByLabel("Current password").fill(ADMIN.password);
    await dialog.getByRole("button", { name: "Remove" }).click();
    await dialog.waitFor({ state: "detached" });
    await panel.getByRole("table", { name: "Your passkeys" }).waitFor({ state: "detached" });
  }, 180_000);
});
