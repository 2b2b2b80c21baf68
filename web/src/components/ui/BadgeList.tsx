import { Badge, type MantineColor } from '@mantine/core';
import { Link, type To } from 'react-router';
import classes from './BadgeList.module.css';
import { colorOfClass } from './styleClass';

/**
 * Reusable badge list (SPEC §2). Each badge has text and a color (a style class such as
 * "badge-success" or "bg-danger", or a plain color name), and at most one of:
 * - `to`: an in-app route target (a router link);
 * - `href`: an external link, opened in a new tab;
 * - `emit`: a payload raised through `onEmit` when the badge is clicked (a button).
 * With none of these the badge is plain text. `mini` gives a compact look.
 */
interface BadgeBase {
  text: string;
  /** Style class ("badge-success", "bg-danger", "text-primary") or a color name ("teal"). */
  color?: string;
  /** Stable React key; the text by default. */
  key?: string;
}

export type BadgeItem = BadgeBase &
  (
    | { to: To; href?: never; emit?: never }
    | { href: string; to?: never; emit?: never }
    | { emit: unknown; to?: never; href?: never }
    | { to?: never; href?: never; emit?: never }
  );

export interface BadgeListProps {
  badges: readonly BadgeItem[];
  /** Compact badges. */
  mini?: boolean;
  /** Receives the `emit` payload of a clicked badge. */
  onEmit?: (payload: unknown, badge: BadgeItem) => void;
  /** Accessible name of the list. */
  'aria-label'?: string;
  className?: string;
}

/** The color a badge's style class stands for: "bg-danger" → red, "teal" → teal; else gray. */
export function badgeColor(colorClass: string | undefined): MantineColor {
  return colorOfClass(colorClass, 'gray');
}

/** What a badge does: which of to / href / emit it carries (the first of them, in that order). */
export function badgeAction(badge: BadgeItem): 'link' | 'external' | 'emit' | 'text' {
  if (badge.to !== undefined && badge.to !== null) return 'link';
  if (badge.href) return 'external';
  if ('emit' in badge && badge.emit !== undefined) return 'emit';
  return 'text';
}

function OneBadge({ badge, mini, onEmit }: { badge: BadgeItem; mini: boolean; onEmit: BadgeListProps['onEmit'] }) {
  const common = {
    color: badgeColor(badge.color),
    variant: 'light' as const,
    size: mini ? 'xs' : 'md',
    radius: 'sm' as const,
    className: [classes.badge, badge.color].filter(Boolean).join(' '),
    'data-mini': mini || undefined,
  };
  switch (badgeAction(badge)) {
    case 'link':
      return (
        <Badge component={Link} to={badge.to!} {...common} data-action="link">
          {badge.text}
        </Badge>
      );
    case 'external':
      return (
        <Badge component="a" href={badge.href!} target="_blank" rel="noopener" {...common} data-action="external">
          {badge.text}{' '}
          <span className={classes.hidden}>(opens in a new tab)</span>
        </Badge>
      );
    case 'emit':
      return (
        <Badge component="button" type="button" onClick={() => onEmit?.(badge.emit, badge)} {...common} data-action="emit">
          {badge.text}
        </Badge>
      );
    default:
      return (
        <Badge {...common} data-action="text">
          {badge.text}
        </Badge>
      );
  }
}

export function BadgeList({ badges, mini = false, onEmit, className, ...rest }: BadgeListProps) {
  if (badges.length === 0) return null;
  return (
    <ul className={[classes.list, mini ? classes.mini : '', className].filter(Boolean).join(' ')} aria-label={rest['aria-label']}>
      {badges.map((badge, index) => (
        <li key={badge.key ?? `${index}:${badge.text}`}>
          <OneBadge badge={badge} mini={mini} onEmit={onEmit} />
        </li>
      ))}
    </ul>
  );
}
