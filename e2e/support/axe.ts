import axe from "axe-core";
import type { Page } from "playwright-core";

// The rules the accessibility target names: WCAG 2.0 and 2.1, levels A and AA.
export const WCAG_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] as const;

export type AxeViolation = {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string; summary: string }[];
};

type AxeWindow = Window & { axe?: typeof axe };

/**
 * Runs axe-core's WCAG 2 A/AA rules on the page as it is now (inject once per document; a
 * client-side navigation keeps it). Returns the violations, empty when the page passes.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const injected = await page.evaluate(() => typeof (window as AxeWindow).axe !== "undefined");
  if (!injected) await page.addScriptTag({ content: axe.source });
  return page.evaluate(
    async (tags) => {
      const engine = (window as AxeWindow).axe;
      if (!engine) throw new Error("axe-core did not load");
      const results = await engine.run(document, { runOnly: { type: "tag", values: tags } });
      return results.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? "unknown",
        help: violation.help,
        nodes: violation.nodes.map((node) => ({
          target: node.target.map(String).join(" "),
          // failureSummary names the measured contrast and the colours for color-contrast.
          summary: (node.any[0]?.message ?? node.failureSummary ?? "").replace(/\s+/g, " ").trim(),
        })),
      }));
    },
    [...WCAG_AA_TAGS],
  );
}

/** Violations as lines a failing test can print: rule, impact, count, then each element and why. */
export function formatViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map((violation) =>
      [
        `${violation.id} (${violation.impact}, ${violation.nodes.length}×): ${violation.help}`,
        ...violation.nodes.map((node) => `  ${node.target}\n    ${node.summary}`),
      ].join("\n"),
    )
    .join("\n");
}

/** Total number of failing elements over all rules: the count we compare before and after. */
export function violationCount(violations: readonly AxeViolation[]): number {
  return violations.reduce((sum, violation) => sum + violation.nodes.length, 0);
}
