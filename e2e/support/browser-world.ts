import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { apiLogIn, type ApiSession } from "./api.js";
import { demoLogin, logIn, readDemoLogins, uncaught, type DemoLogin } from "./auth.js";
import { closePage, collectPageErrors, launchBrowser, newPage } from "./browser.js";
import { startServer, type RunningServer } from "./server.js";

export type Login = { email: string; password: string };

export type BrowserWorldOptions = {
  /** Load the demo data set; its printed logins are then in `logins`. */
  demo?: boolean;
  /** The provider admin the server is configured with (BILLING_ADMIN_EMAIL and _PASSWORD). */
  admin?: Login;
  /** More server environment (a function: read when the server starts, after earlier hooks). */
  env?: Record<string, string> | (() => Record<string, string>);
  /** Room for a slow start (the set-up hook gets 20 s more); the server's default otherwise. */
  startupTimeoutMs?: number;
  /** Whose API session `api` is: the admin's or a demo login's email (none unless named). */
  api?: string;
  /** A fresh page per test (default), or none: the file opens its own with `openPage`. */
  pagePerTest?: boolean;
  /** Each test's page signs in as this email (the admin's or a demo login's); else it starts nowhere. */
  signIn?: string;
  /** Fail a test that leaves uncaught page errors (checked after each test). */
  failOnUncaught?: boolean;
};

export type BrowserWorld = {
  server: RunningServer;
  browser: Browser;
  /** The demo logins (empty without demo data). */
  logins: readonly DemoLogin[];
  /** The API session `options.api` names. */
  api: ApiSession;
  /** This test's page and the errors it logged so far. */
  page: Page;
  pageErrors: string[];
  /** The admin's or a demo login's password, by email. */
  login: (email: string) => Login;
  /** Another page, signed in as `email` when given; the caller closes its context. */
  openPage: (email?: string) => Promise<Page>;
};

/**
 * Registers the hooks the browser tests share: one server and browser for the file (demo data,
 * admin and environment as asked), and for each test a fresh page, signed in as asked, whose
 * context is closed (with a screenshot when the test failed) after it. Call inside `describe`,
 * before the file's own hooks; read `current()` in a test or hook.
 */
export function useBrowserWorld(options: BrowserWorldOptions = {}): { current: () => BrowserWorld } {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let logins: DemoLogin[] = [];
  let api: ApiSession | undefined;
  let page: Page | undefined;
  let pageErrors: string[] = [];

  const login = (email: string): Login =>
    options.admin?.email === email ? options.admin : demoLogin(logins, email);

  beforeAll(
    async () => {
      const { admin } = options;
      server = await startServer({
        demo: options.demo,
        startupTimeoutMs: options.startupTimeoutMs,
        env: {
          ...(admin ? { BILLING_ADMIN_EMAIL: admin.email, BILLING_ADMIN_PASSWORD: admin.password } : {}),
          ...(typeof options.env === "function" ? options.env() : options.env),
        },
      });
      if (options.demo) logins = await readDemoLogins(server);
      if (options.api) {
        const { email, password } = login(options.api);
        api = await apiLogIn(server, email, password);
      }
      browser = await launchBrowser();
    },
    options.startupTimeoutMs === undefined ? undefined : options.startupTimeoutMs + 20_000,
  );

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const openPage = async (email?: string): Promise<Page> => {
    if (!browser || !server) throw new Error("setup failed");
    const opened = await newPage(browser, server.baseUrl);
    if (email) {
      const { password } = login(email);
      await logIn(opened, email, password);
    }
    return opened;
  };

  beforeEach(async () => {
    if (!browser || !server) throw new Error("setup failed");
    if (options.pagePerTest === false) return;
    page = await newPage(browser, server.baseUrl);
    pageErrors = collectPageErrors(page);
    if (options.signIn) {
      const { email, password } = login(options.signIn);
      await logIn(page, email, password);
    }
  });

  afterEach(async ({ task }) => {
    if (options.pagePerTest === false) return;
    if (options.failOnUncaught) expect(uncaught(pageErrors)).toEqual([]);
    if (page) await closePage(page, task);
  });

  return {
    current: () => {
      if (!server || !browser) throw new Error("setup failed");
      const started = { server, browser };
      return {
        ...started,
        logins,
        get api() {
          if (!api) throw new Error("no API session: name its login in `api`");
          return api;
        },
        get page() {
          if (!page) throw new Error("no page: this world opens none per test");
          return page;
        },
        pageErrors,
        login,
        openPage,
      };
    },
  };
}
