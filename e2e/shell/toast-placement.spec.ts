import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import { TEST_ADDRESS } from "../support/api.js";
import { uncaught } from "../support/auth.js";
import { useBrowserWorld } from "../support/browser-world.js";

// Issue 41.7: toasts covered the page's action buttons (they sat top right under the top bars,
// where pages keep their header's buttons and the sticky tab bar's Save; on a phone over the
// list's filter). On a desktop a toast now sits bottom right, clear of the top bars; on a 390×844
// phone over the top bars; on both it covers no button, link or field of the page.

const OWNER_EMAIL = "owner@greenway.example";

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe("where toasts appear", () => {
  const world = useBrowserWorld({
    demo: true,
    api: OWNER_EMAIL,
    signIn: OWNER_EMAIL,
    startupTimeoutMs: 300_000,
  });
  let page: Page;
  let pageErrors: string[];
  beforeEach(() => {
    ({ page, pageErrors } = world.current());
  });

  /** Archives a new zero-balance customer from Manage Customers: the list's own toast. */
  async function archiveToast(name: string) {
    const [first, last] = name.split(" ");
    await world
      .current()
      .api.request("POST", "customers/", { ...TEST_ADDRESS, first_name: first, last_name: last });
    await page.goto("/customers/manage");
    await page.getByRole("heading", { level: 1, name: "Manage Customers" }).waitFor();
    const box = page.getByRole("textbox", { name: "Filter customers" });
    await box.fill(name);
    await box.press("Enter");
    await page.getByRole("button", { name: `Actions for ${name}` }).click();
    await page.getByRole("menuitem", { name: "Archive…" }).click();
    await page
      .getByRole("dialog", { name: "Archive customer" })
      .getByRole("button", { name: "Archive", exact: true })
      .click();
    const toast = page.getByRole("alert").filter({ hasText: `${name} was archived.` });
    await toast.waitFor();
    await page.getByRole("dialog", { name: "Archive customer" }).waitFor({ state: "detached" });
    return toast;
  }

  /** The toast is on screen and covers no button, link or field of the page. */
  async function expectClear(
    toast: ReturnType<Page["getByRole"]>,
    viewport: { width: number; height: number },
  ) {
    const box = await toast.boundingBox();
    expect(box).not.toBeNull();
    if (!box) throw new Error("no toast");
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    const controls = page.getByRole("main").locator("button:visible, a:visible, input:visible");
    const covered: string[] = [];
    for (const control of await controls.all()) {
      const target = await control.boundingBox();
      if (target && target.width > 0 && overlaps(box, target)) {
        covered.push((await control.getAttribute("aria-label")) ?? (await control.innerText()));
      }
    }
    expect(covered).toEqual([]);
    return box;
  }

  test("on a desktop a toast sits bottom right, clear of the page's buttons", async () => {
    const toast = await archiveToast("Tess Toastdesk");
    await page.screenshot({ path: "/tmp/screens-toast-desktop.png" });
    const box = await expectClear(toast, { width: 1280, height: 800 });
    // At the foot of the screen, where no page keeps its header's actions or its sticky Save, and
    // clear of the top bars (the user's name, the bell).
    expect(800 - (box.y + box.height)).toBeLessThanOrEqual(40);
    const header = await page.getByRole("banner").boundingBox();
    expect(header && overlaps(box, header)).toBe(false);
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("on a 390×844 phone a toast drops over the top bars, clear of the page", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const toast = await archiveToast("Tom Toastphone");
    await page.screenshot({ path: "/tmp/screens-toast-390.png" });
    const box = await expectClear(toast, { width: 390, height: 844 });
    // Over the top bars, not the page.
    const header = await page.getByRole("banner").boundingBox();
    expect(box.y + box.height).toBeLessThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));
    expect(uncaught(pageErrors)).toEqual([]);
  });
});
