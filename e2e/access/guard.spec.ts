import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { logIn, logInThroughForm, uncaught } from "../support/auth.js";
import { useBrowserWorld } from "../support/browser-world.js";

const ADMIN_EMAIL = "guard-admin@example.test";
const ADMIN_PASSWORD = "guard-Admin-Password-1";

describe("navigation guard and login", () => {
  const world = useBrowserWorld({ admin: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  let page: Page;
  let pageErrors: string[];
  beforeEach(() => {
    ({ page, pageErrors } = world.current());
  });

  const loginHeading = () => page.getByRole("heading", { level: 1, name: "Login" });

  test("a logged-out visit goes to login with the path and query, and returns there after login", async () => {
    await page.goto("/transactions/search?customer_id=7&client_id=3");
    await loginHeading().waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe("/");
    expect(url.searchParams.get("redirect")).toBe("/transactions/search?customer_id=7&client_id=3");
    expect(await page.getByRole("navigation").count()).toBe(0);

    await logInThroughForm(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.getByRole("heading", { level: 1, name: "Search Transactions" }).waitFor();
    const back = new URL(page.url());
    expect(`${back.pathname}${back.search}`).toBe("/transactions/search?customer_id=7&client_id=3");
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("/login redirects to / and keeps the query", async () => {
    await page.goto("/login?redirect=%2Fhelp");
    await loginHeading().waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe("/");
    expect(url.searchParams.get("redirect")).toBe("/help");
  });

  test("a wrong password reads 'Login failed' and stays on the login page", async () => {
    await page.goto("/");
    await logInThroughForm(page, ADMIN_EMAIL, "not-the-password");
    await page.getByText("Login failed", { exact: true }).waitFor();
    await page.getByText("Unable to log in with provided credentials.").waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await page.getByText("Login succeeded").count()).toBe(0);
    // The page reports the failure itself; the app-wide 400 alert stays out of it.
    expect(await page.getByText(/^Malformed request/).count()).toBe(0);
  });

  test("empty fields are required before anything is sent", async () => {
    await page.goto("/");
    await page.getByRole("button", { name: "Log in" }).click();
    // The messages appear after the click's re-render: wait for them instead of counting at once.
    await expect.poll(() => page.getByText("This field is required.").count()).toBe(2);
  });

  test("public pages need no login", async () => {
    for (const [path, heading] of [
      ["/register", "Register"],
      ["/forgotPassword", "Forgot Password"],
      ["/passwordReset?email=a%40b.example&token=t", "Reset Password"],
      ["/payments", "Payments"],
      ["/logout", "Sign Out"],
    ] as const) {
      await page.goto(path);
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      expect(new URL(page.url()).pathname).toBe(path.split("?")[0]);
    }
  });

  test("/logout while logged out sends nothing and logs no error", async () => {
    const requests: string[] = [];
    const failures: string[] = [];
    const consoleErrors: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/")) requests.push(request.url());
    });
    page.on("response", (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
    });
    page.on("requestfailed", (request) => failures.push(`failed ${request.url()}`));
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") consoleErrors.push(message.text());
    });
    await page.goto("/logout");
    await page.getByText("Thank you. You have been logged out successfully.").waitFor();
    await page.screenshot({ path: "/tmp/screens-logout-logged-out.png" });
    expect(requests).toEqual([]);
    expect(failures).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("a stored session skips the form; a stale token sends the next page to login", async () => {
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    // Logged in already: opening the login page goes straight to the target.
    await page.goto("/?redirect=%2Fhelp");
    await page.getByRole("heading", { level: 1, name: "Help" }).waitFor();

    // A token the server no longer accepts (401) ends the session and returns to login.
    // Not remembered: the token lives in session storage.
    await page.evaluate(() => sessionStorage.setItem("cyclebill.token", "expired.or.revoked"));
    await page.goto("/codes?client_id=1");
    await loginHeading().waitFor();
    expect(new URL(page.url()).searchParams.get("redirect")).toBe("/codes?client_id=1");
    expect(await page.evaluate(() => sessionStorage.getItem("cyclebill.token"))).toBeNull();
  });
});
