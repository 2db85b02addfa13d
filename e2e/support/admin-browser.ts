import type { Page } from "playwright-core";
import type { ApiSession } from "./api.js";
import { useBrowserWorld } from "./browser-world.js";
import type { RunningServer } from "./server.js";

export type AdminBrowser = { server: RunningServer; admin: ApiSession; page: Page };

/**
 * Registers the hooks most screen tests share: one server without demo data and its configured
 * provider admin for the file, and for each test a fresh page signed in as that admin that must end
 * without uncaught page errors. Call inside `describe`; read `current()` in a test or hook.
 */
export function useAdminBrowser(email: string, password: string): { current: () => AdminBrowser } {
  const world = useBrowserWorld({
    admin: { email, password },
    api: email,
    signIn: email,
    failOnUncaught: true,
  });
  return {
    current: () => {
      const { server, api, page } = world.current();
      return { server, admin: api, page };
    },
  };
}
