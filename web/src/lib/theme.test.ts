import { darken, DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrast, CONTROL_BORDER, CONTROL_CONTRAST, cssVariablesResolver, DIMMED, TEXT_CONTRAST, theme } from './theme';

const resolved = mergeMantineTheme(DEFAULT_THEME, theme);
const { light, dark } = cssVariablesResolver(resolved);
const { gray, dark: darkShades } = resolved.colors;
const WHITE = '#ffffff';

/** Mantine's rgba(...) colours as #rrggbb (they are opaque here). */
function hex(color: string): string {
  if (color.startsWith('#')) return color.toLowerCase();
  const [r, g, b] = color.match(/[\d.]+/g)!.map(Number);
  return `#${[r, g, b].map((c) => Math.round(c!).toString(16).padStart(2, '0')).join('')}`;
}

describe('contrast', () => {
  it('is the WCAG ratio', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#868e96', '#ffffff')).toBeCloseTo(3.32, 2);
    expect(contrast('#ffffff', '#ffffff')).toBe(1);
  });
});

describe('theme colours reach WCAG AA text contrast', () => {
  it('dimmed text on the body, hovered rows and grey panels, in both schemes', () => {
    expect(light['--mantine-color-dimmed']).toBe(DIMMED.light);
    for (const bg of [WHITE, gray[0], gray[1], gray[2]]) expect(contrast(DIMMED.light, bg), bg).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    expect(dark['--mantine-color-dimmed']).toBe(DIMMED.dark);
    for (const bg of [darkShades[5], darkShades[6], darkShades[7], darkShades[8]]) expect(contrast(DIMMED.dark, bg), bg).toBeGreaterThanOrEqual(TEXT_CONTRAST);
  });

  it('unchecked checkboxes: the border on the body, hovered and selected rows, grey panels and the box, in both schemes', () => {
    expect(light['--portico-control-border']).toBe(CONTROL_BORDER.light);
    for (const bg of [WHITE, gray[0], gray[1], gray[2], '#f3f6ff', resolved.colors.indigo[0]]) expect(contrast(CONTROL_BORDER.light, bg), bg).toBeGreaterThanOrEqual(CONTROL_CONTRAST);
    expect(dark['--portico-control-border']).toBe(CONTROL_BORDER.dark);
    for (const bg of [darkShades[5], darkShades[6], darkShades[7], darkShades[8]]) expect(contrast(CONTROL_BORDER.dark, bg), bg).toBeGreaterThanOrEqual(CONTROL_CONTRAST);
  });

  it('error text and links on the body', () => {
    expect(contrast(light['--mantine-color-error']!, WHITE)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    expect(contrast(dark['--mantine-color-error']!, darkShades[7])).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    expect(contrast(resolved.colors.indigo[7], WHITE)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    expect(contrast(resolved.colors.indigo[4], darkShades[7])).toBeGreaterThanOrEqual(TEXT_CONTRAST);
  });

  for (const name of Object.keys(resolved.colors)) {
    it(`${name}: white on filled, light-variant text on its tint`, () => {
      const shades = resolved.colors[name]!;
      for (const scheme of [light, dark]) {
        const filled = scheme[`--mantine-color-${name}-filled`]!;
        expect(contrast(WHITE, filled), `white on ${filled}`).toBeGreaterThanOrEqual(TEXT_CONTRAST);
        expect(contrast(WHITE, scheme[`--mantine-color-${name}-filled-hover`]!)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
      }
      // Light scheme: the tint is shade 1; dark scheme (Mantine's): shade 0 on shade 9 darkened by half.
      const text = light[`--mantine-color-${name}-light-color`]!;
      expect(contrast(text, shades[1]), `${text} on ${shades[1]}`).toBeGreaterThanOrEqual(TEXT_CONTRAST);
      if (name !== 'dark') expect(contrast(shades[0], hex(darken(shades[9], 0.5)))).toBeGreaterThanOrEqual(TEXT_CONTRAST);
      // Outlined controls' text and border on the body.
      expect(contrast(light[`--mantine-color-${name}-outline`]!, WHITE)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
    });
  }

  it('moves a colour that passes already not at all', () => {
    expect(light['--mantine-color-indigo-filled']).toBe(resolved.colors.indigo[7]);
    expect(light['--mantine-color-indigo-light-color']).toBe(resolved.colors.indigo[9]);
  });
});
