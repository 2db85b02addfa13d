import type { Page } from "playwright-core";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { apiLogIn } from "../support/api.js";
import { confirmRegistration, demoLogin, logIn, registerUser, type DemoLogin } from "../support/auth.js";
import { closePage, newPage } from "../support/browser.js";
import { useBrowserWorld } from "../support/browser-world.js";
import type { RunningServer } from "../support/server.js";

// The top bar as a user meets it: the bell's badge counts what is unread and clears once read, the
// admin writes the system message there, toasts never cover the user's name or the bell, and a
// self-registered user not yet attached to a client is told so, not called "Owner".

const ADMIN_EMAIL = "bell-admin@example.test";
const ADMIN_PASSWORD = "bell-Admin-Password-1";

describe("the top bar", () => {
  const world = useBrowserWorld({
    demo: true,
    admin: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    pagePerTest: false,
  });
  let server: RunningServer;
  let logins: readonly DemoLogin[] = [];
  let page: Page;
  beforeEach(() => {
    ({ server, logins } = world.current());
  });

  afterEach(async ({ task }) => {
    await closePage(page, task);
  });

  const open = async (email: string, password: string) => {
    page = await newPage(world.current().browser, server.baseUrl);
    await logIn(page, email, password);
  };
  const bell = () => page.getByRole("button", { name: /^Notifications/ });

  test("the admin writes the system message; the badge counts unread messages and clears once read", async () => {
    const systemMessage = `Statements for cycle 5 go out on Friday (${String(Date.now())}).`;
    await open(ADMIN_EMAIL, ADMIN_PASSWORD);
    await bell().click();
    await page.getByRole("button", { name: "Edit system message" }).click();
    await page.getByRole("textbox", { name: "System message" }).fill(systemMessage);
    await page.getByRole("button", { name: "Save" }).click();
    // Saved: the editor closes and the bell shows the message (the textarea may hold the same text).
    await page.getByRole("button", { name: "Edit system message" }).waitFor();
    await page.getByRole("dialog").locator("p").filter({ hasText: systemMessage }).waitFor();
    await closePage(page);

    const owner = demoLogin(logins, "owner@greenway.example");
    await open(owner.email, owner.password);
    // The client's message (from the demo data) and the new system message: two unread.
    await page.getByRole("button", { name: "Notifications (2 unread)" }).waitFor();
    await bell().click();
    await page.getByText(systemMessage).waitFor();
    expect(await page.getByRole("button", { name: "Edit system message" }).count()).toBe(0);
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Notifications", exact: true }).waitFor();
    await page.reload();
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    await page.getByRole("button", { name: "Notifications", exact: true }).waitFor();

    // A changed message is unread again.
    const admin = await apiLogIn(server, ADMIN_EMAIL, ADMIN_PASSWORD);
    await admin.request("PUT", "messages", { system_message: `${systemMessage} Moved to Monday.` });
    await page.reload();
    await page.getByRole("button", { name: "Notifications (1 unread)" }).waitFor();
  });

  test("a toast appears below the top bars, covering neither the user's name nor the bell", async () => {
    const owner = demoLogin(logins, "owner@greenway.example");
    await open(owner.email, owner.password);
    await page.goto("/reports");
    await page.route("**/api/pdf/account-register/**", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"detail":"boom"}' }),
    );
    await page.getByRole("button", { name: "Account Register", exact: true }).click();
    const toast = page.getByRole("alert").filter({ hasText: "Failed to generate account register." });
    await toast.waitFor();
    const header = await page.getByRole("banner").boundingBox();
    const box = await toast.boundingBox();
    expect(header).not.toBeNull();
    expect(box).not.toBeNull();
    if (!header || !box) return;
    expect(box.y).toBeGreaterThanOrEqual(header.y + header.height);
  });

  test("a self-registered user without a client is told so, and what to do", async () => {
    const email = `newcomer-${String(Date.now())}@example.test`;
    const password = "newcomer-Password-1";
    const response = await registerUser(server, { firstName: "Nova", lastName: "Newcomer", email, password });
    expect(response.status).toBeLessThan(300);
    await confirmRegistration(server, email, password);
    await open(email, password);
    const banner = page.getByRole("banner");
    await banner.getByText("Not attached to a client").waitFor();
    expect(await banner.getByText("Owner", { exact: true }).count()).toBe(0);
    await page.goto("/transactions/search");
    await page.getByText("Your account is not attached to a client yet").waitFor();
    await page.getByText(`An administrator must attach ${email} to a client`).waitFor();
    expect(await page.getByText("No client.", { exact: true }).count()).toBe(0);
  });
});
