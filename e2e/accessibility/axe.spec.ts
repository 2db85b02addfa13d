import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import { axeViolations, formatViolations, violationCount } from "../support/axe.js";
import { apiLogIn, findCustomerByNumber } from "../support/api.js";
import { demoLogin, logIn, type DemoLogin } from "../support/auth.js";
import { useBrowserWorld } from "../support/browser-world.js";
import { focused, tabTo } from "../support/keyboard.js";
import type { RunningServer } from "../support/server.js";

// axe-core's WCAG 2 A/AA rules on every screen a clerk or a visitor opens first, over the demo data
// (so tables, badges and dimmed text are all on screen). Set A11Y_SCREENSHOT_DIR to also save a
// full-page screenshot of each screen as tested, to look at the colours the rules ask for.

const OWNER_EMAIL = "owner@greenway.example";

type Screen = { name: string; path: string; heading: string | RegExp };

const SIGNED_OUT: readonly Screen[] = [
  { name: "login", path: "/", heading: "Login" },
  { name: "register", path: "/register", heading: "Register" },
  { name: "forgot-password", path: "/forgotPassword", heading: "Forgot Password" },
];

const SIGNED_IN: readonly Screen[] = [
  { name: "home", path: "/home", heading: /^Welcome, / },
  { name: "manage-customers", path: "/customers/manage", heading: "Manage Customers" },
  { name: "add-customer", path: "/addCustomer", heading: "Add Customer" },
  { name: "codes", path: "/codes", heading: "Bill Codes" },
  { name: "groups", path: "/routes", heading: "Group Admin" },
  { name: "search-transactions", path: "/transactions/search", heading: "Search Transactions" },
  { name: "create-invoice", path: "/transactions/invoice/add", heading: "Create Invoice" },
  { name: "add-by-group", path: "/transactions/addByRoute", heading: "Add Transactions by Group" },
  { name: "invoices-and-statements", path: "/invoicesAndStatements", heading: "Invoices & Statements" },
  { name: "settings", path: "/settings", heading: "Settings" },
  { name: "security", path: "/security", heading: "Security" },
  { name: "access-review", path: "/access-review", heading: "Access review" },
  { name: "help", path: "/help", heading: "Help" },
];

describe("accessibility", () => {
  const world = useBrowserWorld({ demo: true, api: OWNER_EMAIL, failOnUncaught: true });
  let server: RunningServer;
  let owner: DemoLogin;
  let customerId: number;
  let page: Page;

  beforeAll(async () => {
    const { logins, api } = world.current();
    owner = demoLogin(logins, OWNER_EMAIL);
    customerId = (await findCustomerByNumber(api, 1004)).id;
  });

  beforeEach(() => {
    ({ server, page } = world.current());
  });

  /** Opens the screen and waits until its data is on it: the h1, no requests in flight, no loaders. */
  async function openScreen(screen: Screen): Promise<void> {
    await page.goto(screen.path);
    await page.getByRole("heading", { level: 1, name: screen.heading, exact: true }).waitFor();
    await page.waitForLoadState("networkidle");
    await page
      .locator(".mantine-Loader-root, .mantine-Skeleton-root[data-visible]")
      .first()
      .waitFor({ state: "detached", timeout: 15_000 })
      .catch(() => undefined);
    // Mantine's transitions (fades of alerts and popovers) finish first, so contrast is measured at
    // rest; an endless animation (a spinner) never finishes and is left out.
    await page.waitForFunction(() =>
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== "running" ||
            animation.effect?.getComputedTiming().iterations === Infinity,
        ),
    );
  }

  async function expectNoViolations(screen: Screen): Promise<void> {
    const violations = await axeViolations(page);
    const dir = process.env.A11Y_SCREENSHOT_DIR;
    if (dir) {
      await mkdir(dir, { recursive: true });
      await page.screenshot({ path: path.join(dir, `${screen.name}.png`), fullPage: true });
      console.log(`${screen.name}: ${violationCount(violations)} axe violations`);
    }
    // Compared as text so a failure prints one readable line per element and rule.
    expect(
      formatViolations(violations),
      `${violationCount(violations)} axe violations on ${screen.name} (${screen.path})`,
    ).toBe("");
  }

  test.each(SIGNED_OUT)("signed out: $name has no WCAG 2 AA violations", async (screen) => {
    await openScreen(screen);
    await expectNoViolations(screen);
  });

  test.each(SIGNED_IN)("owner: $name has no WCAG 2 AA violations", async (screen) => {
    await logIn(page, owner.email, owner.password);
    await openScreen(screen);
    await expectNoViolations(screen);
  });

  // Beyond the 14 first screens: the customer editor, where a clerk spends much of the day.
  test("owner: edit-customer has no WCAG 2 AA violations", async () => {
    await logIn(page, owner.email, owner.password);
    const screen = { name: "edit-customer", path: `/customers/edit/${customerId}`, heading: "Edit Customer" };
    await openScreen(screen);
    await expectNoViolations(screen);
  });

  describe("keyboard only", () => {
    const heading = (name: string | RegExp) =>
      page.getByRole("heading", { level: 1, name, exact: typeof name === "string" });

    test("sign in, move through the navigation, add a customer and open the notifications", async () => {
      await page.goto("/");
      await heading("Login").waitFor();
      expect((await tabTo(page, /^Username or email/)).element.tag).toBe("input");
      await page.keyboard.type(owner.email);
      await tabTo(page, /^Password/, { maxPresses: 2 });
      await page.keyboard.type(owner.password);
      // Show password is a focusable button; Space shows the password, Shift+Tab returns to it.
      const toggle = await tabTo(page, /^Toggle password visibility$/, { maxPresses: 1 });
      expect(toggle.element).toMatchObject({ tag: "button", ringVisible: true });
      await page.keyboard.press("Space");
      expect(await page.getByLabel(/^Password/).getAttribute("type")).toBe("text");
      await tabTo(page, /^Password/, { backwards: true, maxPresses: 1 });
      await page.keyboard.press("Enter");
      await heading(/^Welcome, /).waitFor();

      // The navigation: every stop on the way shows where the focus is, and Enter follows the link.
      const customersLink = await tabTo(page, /^Customers$/);
      expect(customersLink.element).toMatchObject({ tag: "a", ringVisible: true });
      await page.keyboard.press("Enter");
      await heading("Manage Customers").waitFor();
      await page.waitForLoadState("networkidle");

      // Space presses a button; the dialog takes the focus to its first field, Enter in a field saves.
      const addButton = await tabTo(page, /^Add Customer$/);
      expect(addButton.element).toMatchObject({ tag: "button", ringVisible: true });
      await page.keyboard.press("Space");
      const dialog = page.getByRole("dialog", { name: "Add Customer" });
      await dialog.waitFor();
      await page.waitForFunction(() => document.activeElement?.tagName === "INPUT");
      expect((await focused(page))?.name).toMatch(/^First name/);
      await page.keyboard.type("Kay");
      await tabTo(page, /^Last name/, { maxPresses: 1 });
      await page.keyboard.type("Keyboard");
      // A customer needs a mailing address (issue 28 point 8); Enter in its last field saves.
      await dialog.getByLabel("Address line 1", { exact: true }).fill("3 Key Lane");
      await dialog.getByLabel("City", { exact: true }).fill("Springfield");
      await dialog.getByRole("combobox", { name: "State", exact: true }).fill("Illinois");
      await page.getByRole("option", { name: "IL · Illinois" }).click();
      await dialog.getByLabel("Zip", { exact: true }).fill("62701");
      await dialog.getByLabel("Zip", { exact: true }).focus();
      await page.keyboard.press("Enter");
      await dialog.waitFor({ state: "detached" });
      const api = await apiLogIn(server, owner.email, owner.password);
      const found = await api.request<{ results: { customer_name: string }[] }>(
        "GET",
        "customers/?query=Keyboard&limit=5",
      );
      expect(found.results.map((row) => row.customer_name)).toContain("Kay Keyboard");

      // The bell opens its messages with Enter; Escape closes them and returns to the bell.
      const bell = await tabTo(page, /^Notifications/, { backwards: true });
      expect(bell.element).toMatchObject({ tag: "button", ringVisible: true });
      await page.keyboard.press("Enter");
      const messages = page.getByRole("dialog").filter({ hasText: "Client message" });
      await messages.waitFor();
      // The focus trap moves focus into the messages a moment after they open; Escape is heard there.
      await expect
        .poll(() => messages.evaluate((element) => element.contains(document.activeElement)))
        .toBe(true);
      await page.keyboard.press("Escape");
      await messages.waitFor({ state: "hidden" });
      expect((await focused(page))?.name).toMatch(/^Notifications/);
    });

    test("Search Transactions: open the add row and reach its fields with the keyboard; axe passes there too", async () => {
      await logIn(page, owner.email, owner.password);
      await heading(/^Welcome, /).waitFor();
      await tabTo(page, /^Transactions$/);
      await page.keyboard.press("Enter");
      await heading("Search Transactions").waitFor();
      await page.waitForLoadState("networkidle");

      const add = await tabTo(page, /^Add Transaction$/);
      expect(add.element).toMatchObject({ tag: "button", ringVisible: true });
      await page.keyboard.press("Enter");
      const addRow = page.getByRole("row", { name: "Add Transaction" });
      await addRow.waitFor();
      // The row's fields follow in the tab order, customer first.
      await tabTo(page, /^New transaction customer/);
      await page.keyboard.press("Escape");
      await tabTo(page, /^New transaction description/);
      await page.waitForLoadState("networkidle");
      await expectNoViolations({
        name: "search-transactions-adding",
        path: "/transactions/search",
        heading: "Search Transactions",
      });
    });
  });
});
