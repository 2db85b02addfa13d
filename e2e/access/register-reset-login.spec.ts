import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import {
  firstLinkPath,
  logInThroughForm,
  registerUser,
  uncaught,
  waitForMail,
  type Registration,
} from "../support/auth.js";
import { useBrowserWorld } from "../support/browser-world.js";
import type { RunningServer } from "../support/server.js";

describe("register, reset the password by email, log in, log out", () => {
  const world = useBrowserWorld();
  let server: RunningServer;
  let page: Page;
  let pageErrors: string[];
  beforeEach(() => {
    ({ server, page, pageErrors } = world.current());
  });

  const email = "nora.quinn@example.test";

  const text = (value: string) => page.getByText(value, { exact: true });

  /** Fills the Register page (it must be open) and submits it. */
  async function register(user: Registration) {
    await page.getByLabel("First name").fill(user.firstName);
    await page.getByLabel("Last name").fill(user.lastName);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel(/^Password/).fill(user.password);
    await page.getByLabel(/^Confirm password/).fill(user.password);
    await page.getByRole("button", { name: "Register" }).click();
  }

  test("the whole journey of a new user", async () => {
    if (!server) throw new Error("server did not start");

    // Register.
    await page.goto("/");
    await page.getByRole("link", { name: "Register" }).click();
    await register({ firstName: "Nora", lastName: "Quinn", email, password: "first-Password-1" });
    await text("Registration succeeded, Nora Quinn").waitFor();
    await page.getByText(`We sent a link to ${email}.`, { exact: false }).waitFor();

    // Forgot password: the server mails a reset link to the outbox.
    await page.goto("/");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    // The login page (it has an Email field too) stays on screen until the lazy page has loaded.
    await page.getByRole("heading", { name: "Forgot Password" }).waitFor();
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send Password Reset" }).click();
    await text("Forgot password succeeded, check your email for a password reset link").waitFor();

    const mail = await waitForMail(server, email);
    const link = firstLinkPath(mail);
    expect(link).toMatch(/^\/passwordReset\?/);
    const params = new URLSearchParams(link.split("?")[1]);
    expect(params.get("email")).toBe(email);
    expect(params.get("token")).toBeTruthy();

    // Open the link and choose a new password.
    await page.goto(link);
    await page.getByLabel(/^New password/).fill("second-Password-2");
    await page.getByLabel(/^Confirm password/).fill("second-Password-2");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await text("Reset password succeeded").waitFor();

    // A logged-out visit to a deep link goes to login and comes back afterwards.
    await page.goto("/help?x=1");
    await page.waitForURL((url) => url.pathname === "/");
    expect(new URL(page.url()).searchParams.get("redirect")).toBe("/help?x=1");

    // The old password no longer works; the new one does.
    await logInThroughForm(page, email, "first-Password-1");
    await text("Login failed").waitFor();
    await logInThroughForm(page, email, "second-Password-2");
    await page.waitForURL((url) => url.pathname === "/help");
    expect(new URL(page.url()).search).toBe("?x=1");
    await page.getByRole("heading", { level: 1, name: "Help" }).waitFor();

    // Not yet attached to a client: Home says so.
    await page.getByRole("navigation").getByRole("link", { name: "Home" }).click();
    await page.getByRole("heading", { level: 1, name: "Welcome, Nora Quinn" }).waitFor();
    await text("Your account is not attached to a client yet").waitFor();

    // Log out.
    await page.getByRole("navigation").getByRole("link", { name: "Signout" }).click();
    await text("Thank you. You have been logged out successfully.").waitFor();
    await page.goto("/home");
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByRole("heading", { level: 1, name: "Login" }).waitFor();

    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("a registration is confirmed through its emailed link; registering the address again reads alike and tells its owner", async () => {
    if (!server) throw new Error("server did not start");
    const taken = "taken@example.test";
    const first = await registerUser(server, {
      firstName: "Tess",
      lastName: "Taken",
      email: taken,
      password: "taken-Password-1",
    });
    expect(first.status).toBe(201);
    // Not usable until the emailed link is followed: its page asks for the password chosen.
    const confirmation = await waitForMail(server, taken);
    expect(confirmation.subject).toBe("Confirm your email for Cyclebill");
    const link = firstLinkPath(confirmation);
    expect(link).toMatch(/^\/register\/confirm\?/);
    await page.goto(link);
    await page.getByRole("heading", { name: "Confirm your email" }).waitFor();
    await page.getByLabel(/^Password/).fill("not-the-Password-1");
    await page.getByRole("button", { name: "Confirm and log in" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "Unable to log in with provided credentials." })
      .waitFor();
    await page.getByLabel(/^Password/).fill("taken-Password-1");
    await page.getByRole("button", { name: "Confirm and log in" }).click();
    await page.getByRole("heading", { level: 1, name: "Welcome, Tess Taken" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/home");
    await page.getByRole("navigation").getByRole("link", { name: "Signout" }).click();
    await text("Thank you. You have been logged out successfully.").waitFor();

    await page.goto("/register");
    await register({ firstName: "Tess", lastName: "Again", email: taken, password: "third-Password-3" });
    // The page cannot be used to learn who has an account ...
    await text("Registration succeeded, Tess Again").waitFor();
    // ... the owner of the address learns of the attempt instead.
    const notice = await waitForMail(server, taken);
    expect(notice.subject).toBe("Someone tried to register with your email on Cyclebill");
    expect(notice.body).toContain("Forgot Password");
  });

  test("a reset link with a wrong token fails with the server's reason", async () => {
    await page.goto(`/passwordReset?email=${encodeURIComponent(email)}&token=not-a-token&username=x`);
    await page.getByLabel(/^New password/).fill("fourth-Password-4");
    await page.getByLabel(/^Confirm password/).fill("fourth-Password-4");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await text("Reset password failed").waitFor();
    await page.getByText("This password reset link is invalid or has expired.").waitFor();
  });

  test("the forms check required fields before sending", async () => {
    await page.goto("/forgotPassword");
    await page.getByRole("button", { name: "Send Password Reset" }).click();
    await text("This field is required.").waitFor();
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByRole("button", { name: "Send Password Reset" }).click();
    await text("Enter a valid email address.").waitFor();
  });
});
