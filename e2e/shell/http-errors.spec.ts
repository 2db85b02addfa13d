import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { useBrowserWorld } from "../support/browser-world.js";

const ADMIN_EMAIL = "errors-admin@example.test";
const ADMIN_PASSWORD = "errors-Admin-Password-1";

// The spec's HTTP error catalogue, seen by the user. The server cannot be made to fail on demand,
// so these tests answer selected calls in the browser with the failure to show.
describe("HTTP error catalogue", () => {
  const world = useBrowserWorld({
    admin: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    signIn: ADMIN_EMAIL,
  });
  let page: Page;

  beforeEach(async () => {
    ({ page } = world.current());
    // A client to work on, so Home asks for its summary.
    await page.route("**/api/clients/7/", (route) =>
      route.fulfill({ json: { id: 7, client_no: 1007, client_name: "Stubbed Client" } }),
    );
  });

  const alert = (title: string) => page.getByRole("alert").filter({ hasText: title });

  test("a 500 says 'Server side error occurred'", async () => {
    await page.route("**/api/summary-data/client/7", (route) =>
      route.fulfill({ status: 500, json: { detail: "A server error occurred." } }),
    );
    await page.goto("/home?client_id=7");
    await alert("Server side error occurred").waitFor();
  });

  test("a 400 with non_field_errors says the request was malformed, with the details", async () => {
    await page.route("**/api/summary-data/client/7", (route) =>
      route.fulfill({ status: 400, json: { non_field_errors: ["Bad date range."] } }),
    );
    await page.goto("/home?client_id=7");
    const malformed = alert("Malformed request, may be missing or invalid parameters required for API call");
    await malformed.waitFor();
    expect(await malformed.textContent()).toContain("Bad date range.");
  });

  test("a failing messages call leaves the bell empty, without an alert", async () => {
    await page.route("**/api/messages**", (route) =>
      route.fulfill({ status: 500, json: { detail: "down" } }),
    );
    await page.goto("/help?client_id=7");
    await page.getByRole("heading", { level: 1, name: "Help" }).waitFor();
    await page.getByRole("button", { name: "Notifications", exact: true }).click();
    await page.getByText("System message", { exact: true }).waitFor();
    expect(await page.getByText("No message").count()).toBe(2);
    expect(await page.getByText("Server side error occurred").count()).toBe(0);
  });

  test("a 401 ends the session and returns to login with a redirect back", async () => {
    await page.route("**/api/summary-data/client/7", (route) =>
      route.fulfill({ status: 401, json: { detail: "Given token not valid for any token type" } }),
    );
    await page.goto("/home?client_id=7");
    await page.getByRole("heading", { level: 1, name: "Login" }).waitFor();
    expect(new URL(page.url()).searchParams.get("redirect")).toBe("/home?client_id=7");
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
  });
});
