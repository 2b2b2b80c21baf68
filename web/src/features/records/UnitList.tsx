/**
 * Totals of one field, one per unit (format.ts formatUnitTotals): a lone total is plain
 * text; several are a list, so a screen reader announces how many and each amount on its
 * own ("list, 2 items: €12,000.00, £3,000.00") instead of running them together. Stacked,
 * one per line (table cells, big figures), or inline, separated by a dot that is not read
 * out ("34.12 Wetland · 0.01 Stream"), each amount kept whole when the line wraps.
 */
import classes from './UnitList.module.css';

export interface UnitListProps {
  /** The totals' texts, one per unit, in their order. */
  texts: readonly string[];
  /** On one line, wrapping between totals, rather than one per line. */
  inline?: boolean;
  /** Names the list (several totals), e.g. "Available credits by credit type". */
  'aria-label'?: string;
  'data-testid'?: string;
}

export function UnitList({ texts, inline = false, 'aria-label': label, 'data-testid': testId }: UnitListProps) {
  if (texts.length <= 1) return <span data-testid={testId}>{texts[0] ?? ''}</span>;
  return (
    // role="list": Safari drops the list's semantics once its bullets are styled away.
    <ul role="list" className={inline ? classes.inline : classes.stack} aria-label={label} data-testid={testId}>
      {texts.map((text, i) => (
        <li key={`${i}:${text}`}>{text}</li>
      ))}
    </ul>
  );
}
