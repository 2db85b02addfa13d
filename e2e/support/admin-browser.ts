import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { apiLogIn, type ApiSession } from "./api.js";
import { logIn, uncaught } from "./auth.js";
import { closePage, collectPageErrors, launchBrowser, newPage } from "./browser.js";
import { startServer, type RunningServer } from "./server.js";

export type AdminBrowser = { server: RunningServer; admin: ApiSession; page: Page };

/**
 * Registers the hooks most screen tests share: one server without demo data and its configured
 * provider admin for the file, and for each test a fresh page signed in as that admin that must end
 * without uncaught page errors. Call inside `describe`; read `current()` in a test or hook.
 */
export function useAdminBrowser(email: string, password: string): { current: () => AdminBrowser } {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let admin: ApiSession | undefined;
  let page: Page | undefined;
  let pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startServer({ env: { BILLING_ADMIN_EMAIL: email, BILLING_ADMIN_PASSWORD: password } });
    admin = await apiLogIn(server, email, password);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  beforeEach(async () => {
    if (!browser || !server) throw new Error("setup failed");
    page = await newPage(browser, server.baseUrl);
    pageErrors = collectPageErrors(page);
    await logIn(page, email, password);
  });

  afterEach(async ({ task }) => {
    expect(uncaught(pageErrors)).toEqual([]);
    if (page) await closePage(page, task);
  });

  return {
    current: () => {
      if (!server || !admin || !page) throw new Error("setup failed");
      return { server, admin, page };
    },
  };
}
