import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Filled buttons of the primary colour keep white text at ≥ 4.5:1 in both schemes
  // (indigo 5, Mantine's dark default, gave 3.67:1).
  primaryShade: { light: 7, dark: 7 },
  defaultRadius: 'md',
  // Keyboard users get a visible ring on every focusable element; mouse clicks do not.
  focusRing: 'auto',
  // Menus and dialogs appear without animation for people who ask for reduced motion.
  respectReducedMotion: true,
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  components: {
    // Mantine's scroll lock injects a <style> element without the page's CSP nonce, which
    // the server's policy refuses: no dialog locks page scrolling (they are centred and
    // trap focus either way).
    // Its ✕ button is named, as every control is.
    Modal: { defaultProps: { lockScroll: false, closeButtonProps: { 'aria-label': 'Close dialog' } } },
  },
});

/** WCAG 2 AA contrast for text (1.4.3). */
export const TEXT_CONTRAST = 4.5;

/** WCAG 2 AA contrast for the parts of a control that identify it, such as a box's border (1.4.11). */
export const CONTROL_CONTRAST = 3;

const WHITE = '#ffffff';

/** The relative luminance of a #rrggbb colour (WCAG 2). */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG 2 contrast ratio of two #rrggbb colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `hex` mixed with black by `amount` (0–1), as #rrggbb. */
function darker(hex: string, amount: number): string {
  return `#${[1, 3, 5]
    .map((i) => Math.round(parseInt(hex.slice(i, i + 2), 16) * (1 - amount)))
    .map((c) => c.toString(16).padStart(2, '0'))
    .join('')}`;
}

/** `hex`, darkened in small steps until it reads at {@link TEXT_CONTRAST} on `background`. */
function readableOn(hex: string, background: string): string {
  let color = hex;
  for (let amount = 0.04; contrast(color, background) < TEXT_CONTRAST && amount < 1; amount += 0.04) color = darker(hex, amount);
  return color;
}

/** The first of `shades` (lightest first) on which white text reads; the last one darkened if none does. */
function underWhiteText(shades: readonly string[]): string {
  return shades.find((shade) => contrast(WHITE, shade) >= TEXT_CONTRAST) ?? readableOn(shades[shades.length - 1]!, WHITE);
}

/** Dimmed text (captions, secondary lines) per scheme: ≥ 4.5:1 on the body, on hovered rows and on grey panels. */
export const DIMMED = { light: '#646b72', dark: '#a8a8a8' } as const;

/**
 * The border of an unchecked checkbox per scheme: ≥ 3:1 on the body, on hovered and
 * selected rows, on grey panels and on the box's own fill (Mantine's gray 4 and dark 4 gave
 * about 1.5:1, the box all but invisible). Checked, indeterminate, disabled and invalid
 * boxes keep Mantine's colours (global.css).
 */
export const CONTROL_BORDER = { light: '#7a828a', dark: '#8a8a8a' } as const;

/**
 * Colour variables that keep Mantine's look but reach WCAG AA contrast in both schemes
 * (issue 16's axe findings): dimmed text, error text, unchecked checkboxes' border
 * (`--portico-control-border`, used by global.css), and for every theme colour the
 * filled background under white text (buttons, filled badges) and the text of the light
 * variant (badges such as DEMO or a status, alerts) on its tint. Mantine's defaults gave
 * 3.32:1 for dimmed text, 3.61:1 for orange and 4.32:1 for teal light badges, 3.84:1 for a
 * red button. Shades are picked, not invented: a colour moves only as far as it must.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': DIMMED.light,
    '--portico-control-border': CONTROL_BORDER.light,
    '--mantine-color-error': readableOn(resolved.colors.red[7], WHITE),
  };
  const dark: Record<string, string> = {
    '--mantine-color-dimmed': DIMMED.dark,
    '--portico-control-border': CONTROL_BORDER.dark,
    '--mantine-color-error': resolved.colors.red[5],
  };
  for (const [name, shades] of Object.entries(resolved.colors)) {
    // Both schemes fill with the primary shade (7) or the next darker one white text reads on.
    const filled = underWhiteText(shades.slice(7));
    for (const scheme of [light, dark]) {
      scheme[`--mantine-color-${name}-filled`] = filled;
      scheme[`--mantine-color-${name}-filled-hover`] = darker(filled, 0.12);
    }
    light[`--mantine-color-${name}-outline`] = filled;
    light[`--mantine-color-${name}-light-color`] = readableOn(shades[9], shades[1]);
  }
  return { variables: {}, light, dark };
};
