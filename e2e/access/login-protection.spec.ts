import type { Browser, Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { createClient, type ApiSession } from "../support/api.js";
import { logIn, logInThroughForm, uncaught } from "../support/auth.js";
import { useBrowserWorld } from "../support/browser-world.js";
import type { RunningServer } from "../support/server.js";

const ADMIN_EMAIL = "shield-admin@example.test";
const ADMIN_PASSWORD = "shield-Admin-Password-1";
const TOKEN_KEY = "cyclebill.token";

describe("sign-in protection: no lock-out under attack, and remember me", () => {
  const world = useBrowserWorld({
    admin: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    api: ADMIN_EMAIL,
    // The guesses below name their address in X-Forwarded-For, as behind a proxy on this host.
    env: { TRUST_PROXY: "loopback" },
  });
  let server: RunningServer;
  let browser: Browser;
  let admin: ApiSession;
  let page: Page;
  let pageErrors: string[];
  beforeEach(() => {
    ({ server, browser, api: admin, page, pageErrors } = world.current());
  });

  /** Ten wrong passwords for the account from each of `addresses` guessing addresses, side by side. */
  async function guess(account: string, addresses: number, subnet: number): Promise<number[]> {
    const fromAddress = async (address: number) => {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const response = await fetch(`${server?.baseUrl ?? ""}/api/auth-jwt/`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Forwarded-For": `10.30.${subnet}.${address}` },
          body: JSON.stringify({ username: account, password: `guess ${attempt}` }),
        });
        statuses.push(response.status);
      }
      return statuses;
    };
    const all = await Promise.all(Array.from({ length: addresses }, (_, index) => fromAddress(index + 1)));
    return all.flat();
  }

  // 160 password checks at about 60 ms each, on a loaded machine: more than the default minute.
  test("the admin signs in while 12 addresses guess the password, and admins see the attack", async () => {
    const client = await createClient(admin, "Shield Plumbing");
    await admin.request("POST", `users/?client_id=${client.id}`, {
      firstName: "Gus",
      lastName: "Guarded",
      email: "gus@shield-plumbing.example",
      isStaff: true,
    });
    const adminGuesses = await guess(ADMIN_EMAIL, 12, 1);
    await guess("gus@shield-plumbing.example", 4, 2);
    // The attack is logged (once per account and hour) ...
    const attackLines = () =>
      (server?.logs() ?? "").split("\n").filter((line) => line.includes("login: account under attack"));
    expect(attackLines()).toHaveLength(2);
    expect(attackLines().filter((line) => line.includes(ADMIN_EMAIL))).toHaveLength(1);
    // Guessing addresses were slowed (429) once the account was under attack ...
    expect(adminGuesses.filter((status) => status === 429).length).toBeGreaterThan(0);

    // ... but the admin, from this browser's address, signs in at once.
    await logIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.getByRole("heading", { level: 1, name: /^Welcome/ }).waitFor();
    const homeAlert = page.getByRole("alert", { name: "Sign-in under attack" });
    await homeAlert
      .getByText(/shield-admin@example\.test\)?, provider admin: \d+ failed sign-ins from 12 addresses/)
      .waitFor();
    await homeAlert
      .getByText(/gus@shield-plumbing\.example\), Shield Plumbing: \d+ failed sign-ins from 4 addresses/)
      .waitFor();
    await page.screenshot({ path: "/tmp/screens-login-alerts-home.png" });

    // The client's User Management shows the line for its own user.
    await page.goto(`/clients/${client.id}?client_id=${client.id}`);
    await page.getByRole("tab", { name: "User Management" }).click();
    const usersAlert = page.getByRole("alert", { name: "Sign-in under attack" });
    await usersAlert
      .getByText(/Gus Guarded \(gus@shield-plumbing\.example\): \d+ failed sign-ins from 4 addresses/)
      .waitFor();
    expect(await usersAlert.getByText(ADMIN_EMAIL).count()).toBe(0);
    await page.screenshot({ path: "/tmp/screens-login-alerts-users.png" });
    expect(uncaught(pageErrors)).toEqual([]);
  }, 180_000);

  /** Logs in through the form, then opens Home in a restarted browser: local storage kept, session storage gone. */
  async function afterRestart(rememberMe: boolean): Promise<Page> {
    if (!browser || !server) throw new Error("setup failed");
    await page.goto("/");
    if (rememberMe) await page.getByLabel("Remember me").check();
    await logInThroughForm(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL((url) => url.pathname !== "/");
    const stored = await page.evaluate(
      (key) => ({
        session: sessionStorage.getItem(key),
        local: localStorage.getItem(key),
      }),
      TOKEN_KEY,
    );
    expect(rememberMe ? stored.local : stored.session).toMatch(/^ey/);
    expect(rememberMe ? stored.session : stored.local).toBeNull();
    const kept = await page.context().storageState();
    const restarted = await browser.newContext({ baseURL: server.baseUrl, storageState: kept });
    const reopened = await restarted.newPage();
    await reopened.goto("/home");
    return reopened;
  }

  test("unticked, the session ends with the browser; ticked, it is remembered", async () => {
    const forgotten = await afterRestart(false);
    await forgotten.getByRole("heading", { level: 1, name: "Login" }).waitFor();
    await forgotten.context().close();

    await page.context().clearCookies();
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    const remembered = await afterRestart(true);
    await remembered.getByRole("heading", { level: 1, name: /^Welcome/ }).waitFor();
    await remembered.context().close();
    expect(uncaught(pageErrors)).toEqual([]);
  });
});
