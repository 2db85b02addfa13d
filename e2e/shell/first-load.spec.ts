import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { collectPageErrors } from "../support/browser.js";
import { useBrowserWorld } from "../support/browser-world.js";

// The budget for the login screen's first load, compressed as sent.
const FIRST_LOAD_JS_BUDGET_BYTES = 150_000;

type Loaded = { path: string; bytes: number; encoding: string | undefined; cacheControl: string | undefined };

describe("first load", () => {
  const world = useBrowserWorld();
  let page: Page;
  let scripts: Promise<Loaded>[];

  beforeEach(() => {
    // A new context has an empty HTTP cache: a cold load.
    ({ page } = world.current());
    scripts = [];
    page.on("requestfinished", (request) => {
      if (request.resourceType() !== "script") return;
      scripts.push(
        (async () => {
          const headers = (await request.response())?.headers() ?? {};
          return {
            path: new URL(request.url()).pathname,
            bytes: (await request.sizes()).responseBodySize,
            encoding: headers["content-encoding"],
            cacheControl: headers["cache-control"],
          };
        })(),
      );
    });
  });

  test("the login screen loads at most 150 kB of compressed JavaScript, cached for good", async () => {
    const errors = collectPageErrors(page);
    const html = await page.goto("/");
    expect(html?.headers()["cache-control"]).toBe("no-cache");
    await page.getByRole("button", { name: "Log in" }).waitFor();
    await page.waitForLoadState("networkidle");
    // The first load is what index.html names (its script and the modules it preloads); chunks the
    // login screen asks for once it shows (validation, toasts) are not on its critical path.
    const named = new Set(
      [...((await html?.text()) ?? "").matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]),
    );
    const all = await Promise.all(scripts);
    const loaded = all.filter((script) => named.has(script.path));
    expect(loaded.length).toBe(named.size);
    const total = loaded.reduce((sum, script) => sum + script.bytes, 0);
    expect(total, JSON.stringify(loaded, null, 1)).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET_BYTES);
    for (const script of all) {
      expect(script.path).toMatch(/^\/assets\//);
      expect(script.cacheControl, script.path).toBe("public, max-age=31536000, immutable");
    }
    // Chromium accepts br: every script big enough to have a compressed copy comes as one.
    const big = loaded.filter((script) => script.bytes > 1_000);
    expect(big.length).toBeGreaterThan(0);
    for (const script of big) expect(script.encoding, script.path).toBe("br");
    expect(errors).toEqual([]);
  });

  test("other screens load their code on first use, and history navigation still works", async () => {
    const errors = collectPageErrors(page);
    await page.goto("/");
    await page.getByRole("button", { name: "Log in" }).waitFor();
    await page.waitForLoadState("networkidle");
    const atLogin = (await Promise.all(scripts)).map((script) => script.path);
    expect(atLogin.some((path) => path.includes("RegisterPage"))).toBe(false);

    await page
      .getByRole("link", { name: /register/i })
      .first()
      .click();
    await page.getByRole("heading", { level: 1, name: /register/i }).waitFor();
    const afterRegister = (await Promise.all(scripts)).map((script) => script.path);
    expect(afterRegister.some((path) => path.includes("RegisterPage"))).toBe(true);

    await page.goBack();
    await page.getByRole("button", { name: "Log in" }).waitFor();
    await page.goForward();
    await page.getByRole("heading", { level: 1, name: /register/i }).waitFor();
    // A deep link to a lazy screen renders it on a cold load too.
    await page.goto("/forgotPassword");
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toMatch(/password/i);
    expect(errors).toEqual([]);
  });
});
