/**
 * The current role's menu as the navbar and the command palette show it: the role's
 * layout (SPEC §2 categories), read against the kind registry (`GET /api/v1/kinds`, which
 * lists the kinds the role may see with their route segments). A named action opens its
 * record type's page at the registry's route; an entry that leads to a kind the role does
 * not see (a page that would only say "not found") is left out, and so is a category left
 * with nothing in it.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { resolveHref, type KindRoutes } from './actions';
import { paths } from '../../lib/paths';
import { kindsQuery } from '../records';
import { useSessionStore, type MenuItem } from '../../lib/session';

/** First segments of the app's fixed paths (/feedback, /reports/list, …): no kind's. */
const FIXED_SEGMENTS = new Set(Object.values(paths).map((path) => firstSegment(path)));

function firstSegment(path: string): string {
  return path.split(/[?#]/)[0]!.split('/').filter(Boolean)[0] ?? '';
}

/** Drops separators at either end and doubled ones (left behind by removed entries). */
function tidySeparators(items: MenuItem[]): MenuItem[] {
  const out: MenuItem[] = [];
  for (const item of items) {
    if (item.separator && (out.length === 0 || out.at(-1)!.separator)) continue;
    out.push(item);
  }
  while (out.at(-1)?.separator) out.pop();
  return out;
}

/**
 * The menu tree with action hrefs resolved to in-app paths through `kinds`, and without
 * the entries that lead to a record kind not among them.
 */
export function menuFromRegistry(items: readonly MenuItem[], kinds: KindRoutes): MenuItem[] {
  const routes = new Set(kinds.map((k) => k.route));
  const kept = items.flatMap((item): MenuItem[] => {
    if (item.separator) return [item];
    const children = item.items ?? [];
    if (children.length > 0) {
      const inner = menuFromRegistry(children, kinds);
      return inner.length > 0 ? [{ ...item, items: inner }] : [];
    }
    const target = resolveHref(item.href, kinds);
    if (target.kind !== 'internal') return target.kind === 'none' && item.href.trim() !== '' ? [] : [item];
    const segment = firstSegment(target.to);
    if (!FIXED_SEGMENTS.has(segment) && !routes.has(segment)) return [];
    return [{ ...item, href: target.to }];
  });
  return tidySeparators(kept);
}

/**
 * The current role's menu, read against its kinds once the registry has answered (until
 * then, and if it fails, the layout as it came).
 */
export function useMenuItems(): MenuItem[] {
  const categories = useSessionStore((s) => s.categories);
  const kinds = useQuery(kindsQuery()).data;
  return useMemo(() => (kinds ? menuFromRegistry(categories, kinds) : categories), [categories, kinds]);
}
