import type { Page } from "playwright-core";

export type FocusedElement = {
  tag: string;
  role: string;
  /** aria-label, else the associated label's text, else the element's own text. */
  name: string;
  /** The browser shows a focus indicator: :focus-visible with an outline or a box-shadow ring. */
  ringVisible: boolean;
};

/** What has the keyboard focus now (null when it is on the body). */
export function focused(page: Page): Promise<FocusedElement | null> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!(element instanceof HTMLElement) || element === document.body) return null;
    const labelled = element.getAttribute("aria-labelledby");
    const labelText =
      element.getAttribute("aria-label") ??
      (labelled ? document.getElementById(labelled)?.textContent : null) ??
      (element instanceof HTMLInputElement ? element.labels?.[0]?.textContent : null) ??
      element.textContent ??
      "";
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== "none";
    return {
      tag: element.tagName.toLowerCase(),
      role: element.getAttribute("role") ?? "",
      name: labelText.replace(/\s+/g, " ").trim(),
      ringVisible: element.matches(":focus-visible") && (outline || shadow),
    };
  });
}

/**
 * Presses Tab (or Shift+Tab) until the focused element's name matches, at most `maxPresses` times;
 * returns the element and how many presses it took, or throws naming the stops it passed.
 */
export async function tabTo(
  page: Page,
  name: RegExp,
  options: { backwards?: boolean; maxPresses?: number } = {},
): Promise<{ element: FocusedElement; presses: number }> {
  const stops: string[] = [];
  const maxPresses = options.maxPresses ?? 40;
  for (let presses = 1; presses <= maxPresses; presses += 1) {
    await page.keyboard.press(options.backwards ? "Shift+Tab" : "Tab");
    const element = await focused(page);
    if (element && name.test(element.name)) return { element, presses };
    stops.push(element ? `${element.tag}[${element.role}] "${element.name.slice(0, 40)}"` : "(body)");
  }
  throw new Error(`No focus stop named ${name} within ${maxPresses} presses; passed:\n${stops.join("\n")}`);
}
