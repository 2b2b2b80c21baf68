import type { MantineColor } from '@mantine/core';

const PALETTE: MantineColor[] = ['blue', 'teal', 'grape', 'orange', 'cyan', 'lime', 'pink', 'violet', 'yellow'];

const BY_MEANING: [RegExp, MantineColor][] = [
  [/^(active|approved|won|paid in full|billed|received|open|released)$/i, 'teal'],
  [/^(closed|inactive|voided|expired|retired|lost|rejected)$/i, 'gray'],
  [/^(overdue|on hold)$/i, 'red'],
  [/^(pending approval|under review|submitted|proposed|draft|reserved|sent)$/i, 'yellow'],
];

/**
 * The badge colour of a status value: a few common meanings get the obvious colour,
 * other values a stable colour from their place among the field's choices.
 */
export function statusColor(value: string, choices?: readonly string[]): MantineColor {
  for (const [pattern, color] of BY_MEANING) if (pattern.test(value)) return color;
  const index = choices?.indexOf(value) ?? -1;
  if (index >= 0) return PALETTE[index % PALETTE.length]!;
  let hash = 0;
  for (const ch of value) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return PALETTE[hash % PALETTE.length]!;
}
