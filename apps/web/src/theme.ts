import {
  Notification,
  PasswordInput,
  createTheme,
  darken,
  getPrimaryShade,
  luminance,
  toRgba,
  type CSSVariablesResolver,
  type MantineTheme,
} from "@mantine/core";

// WCAG 2 AA (1.4.3): normal-size text needs 4.5:1 against its background. Mantine's default light
// scheme misses it in many places (dimmed grey #868e96 on white is 3.32:1, white on teal-6 2.55:1,
// teal-9 on teal-1 for the active nav link 4.32:1), so the light-scheme colour variables below are
// derived from the palettes, darkened only as far as each needs to reach 4.5:1.
export const MIN_TEXT_CONTRAST = 4.5;

/** WCAG contrast ratio of two colours (hex or rgb[a]); 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

function toHex(color: string): string {
  const { r, g, b } = toRgba(color);
  return `#${[r, g, b].map((channel) => channel.toString(16).padStart(2, "0")).join("")}`;
}

/** The colour, darkened in small steps until it reaches 4.5:1 on every one of the backgrounds. */
export function darkenForText(color: string, backgrounds: readonly string[]): string {
  for (let amount = 0; amount < 1; amount += 0.02) {
    const candidate = toHex(darken(color, amount));
    if (backgrounds.every((background) => contrastRatio(candidate, background) >= MIN_TEXT_CONTRAST)) {
      return candidate;
    }
  }
  return "#000000";
}

/**
 * The first shade from `from` on (darker) that reads on all the backgrounds, so colours keep the
 * palette's saturation; past shade 9, shade 9 darkened.
 */
export function readableShade(
  palette: readonly string[],
  from: number,
  backgrounds: readonly string[],
): string {
  for (let index = from; index < palette.length; index += 1) {
    const color = palette[index];
    if (color && backgrounds.every((background) => contrastRatio(color, background) >= MIN_TEXT_CONTRAST)) {
      return color;
    }
  }
  return darkenForText(palette[palette.length - 1] ?? "#000000", backgrounds);
}

const WHITE = "#ffffff";

/** Light-scheme variables that replace Mantine's defaults where those fall short of AA. */
export function accessibleLightVariables(theme: MantineTheme): Record<string, string> {
  const gray = theme.colors.gray;
  // Screens sit on gray-0 (the main area, the selection bar) and cards and inputs on white;
  // table hover rows are gray-1.
  const surfaces = [WHITE, gray[0], gray[1]];
  const shade = getPrimaryShade(theme, "light");
  const variables: Record<string, string> = {
    // Grey shade 7 is far darker than 6, so dimmed and placeholder text darken shade 6 just enough.
    // Dimmed hints also sit in rows tinted with the primary light colour (the add-transaction row).
    "--mantine-color-dimmed": darkenForText(gray[6], [
      ...surfaces,
      theme.colors[theme.primaryColor]?.[1] ?? WHITE,
    ]),
    "--mantine-color-placeholder": darkenForText(gray[6], surfaces),
    "--mantine-color-error": readableShade(theme.colors.red, 6, surfaces),
    "--mantine-color-anchor": `var(--mantine-color-${theme.primaryColor}-text)`,
  };

  for (const [name, palette] of Object.entries(theme.colors)) {
    // "dark" is the dark scheme's palette; its shades already contrast with white.
    if (name === "dark") continue;
    // Filled buttons, badges and the selected nav dot carry white text.
    const filled = readableShade(palette, shade, [WHITE]);
    const text = readableShade(palette, shade, [...surfaces, palette[0]]);
    variables[`--mantine-color-${name}-filled`] = filled;
    // Mantine's hover is the next shade; keep a visible step darker than the (darkened) filled.
    variables[`--mantine-color-${name}-filled-hover`] = toHex(darken(filled, 0.12));
    variables[`--mantine-color-${name}-text`] = text;
    variables[`--mantine-color-${name}-outline`] = text;
    // Light variant (alerts, light badges, the active nav link): text on shades 0-2, hover included.
    variables[`--mantine-color-${name}-light-color`] = readableShade(palette, 9, [
      palette[0],
      palette[1],
      palette[2],
    ]);
  }
  return variables;
}

export const cssVariablesResolver: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: accessibleLightVariables(theme),
  dark: {},
});

export const theme = createTheme({
  primaryColor: "teal",
  defaultRadius: "sm",
  components: {
    // Mantine leaves the show-password button out of the tab order; keyboard users need it too.
    PasswordInput: PasswordInput.extend({ defaultProps: { visibilityToggleFocusable: true } }),
    // Toasts: the close button gets a name, and a titled toast's text the dimmed colour that reads
    // (Mantine's grey-6 description is 3.32:1 on white).
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { "aria-label": "Dismiss notification" } },
      styles: { description: { color: "var(--mantine-color-dimmed)" } },
    }),
  },
});
