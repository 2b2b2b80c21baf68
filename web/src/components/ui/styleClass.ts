import type { MantineColor } from '@mantine/core';

/**
 * Style classes as the portal's data names them (SPEC §2/§3: a badge's color, the alert
 * class such as "alert-danger" or the default "text-primary") mapped to theme colors.
 */
const CONTEXTUAL: Readonly<Record<string, MantineColor>> = {
  primary: 'indigo',
  secondary: 'gray',
  success: 'teal',
  danger: 'red',
  warning: 'yellow',
  info: 'cyan',
  light: 'gray',
  dark: 'dark',
  muted: 'gray',
};

const THEME_COLORS = new Set([
  'dark', 'gray', 'red', 'pink', 'grape', 'violet', 'indigo', 'blue', 'cyan', 'teal', 'green', 'lime', 'yellow', 'orange',
]);

/** The contextual name of a class: "alert-danger" → "danger"; "bg-success" → "success". */
export function contextOf(styleClass: string): string {
  return styleClass.replace(/^(badge|bg|text|alert|btn|label|status)-/, '');
}

/**
 * The color a style class stands for ("bg-danger" → red, "teal" → teal); the first class
 * of a list that names one wins; `fallback` otherwise.
 */
export function colorOfClass(styleClass: string | undefined, fallback: MantineColor = 'gray'): MantineColor {
  if (!styleClass) return fallback;
  for (const token of styleClass.trim().toLowerCase().split(/\s+/)) {
    const name = contextOf(token);
    if (CONTEXTUAL[name]) return CONTEXTUAL[name];
    if (THEME_COLORS.has(name)) return name;
  }
  return fallback;
}
