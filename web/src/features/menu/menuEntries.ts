import { resolveHref, type HrefTarget } from './actions';
import type { MenuItem } from '../../lib/session';
import type { ListOption } from '../../components/search/OptionList';

/** A "Go to" entry of the command palette: one menu item of the current role's layout. */
export interface GoToOption extends ListOption {
  target: Exclude<HrefTarget, { kind: 'none' }>;
}

/**
 * Every item of the menu tree that leads somewhere, depth first, named by its text with
 * the categories above it as detail ("Finance › More"). Separators, bare categories and
 * hrefs that lead nowhere are left out.
 */
export function goToOptions(items: readonly MenuItem[], trail: readonly string[] = []): GoToOption[] {
  return items.flatMap((item, index) => {
    if (item.separator) return [];
    const children = item.items;
    if (children.length > 0) return goToOptions(children, [...trail, item.text]);
    const target = resolveHref(item.href);
    if (target.kind === 'none') return [];
    const detail = trail.join(' › ');
    return [{ key: `goto:${[...trail, index].join('/')}:${item.text}`, name: item.text, detail: detail || undefined, target }];
  });
}

/**
 * The entries matching `query`: every word of it (case-insensitive) is found in the
 * entry's name or detail (a menu item's categories, a record's kind and number). An empty
 * query matches all.
 */
export function filterByWords<T extends ListOption>(options: readonly T[], query: string): T[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return options.filter((option) => {
    const text = `${option.name} ${option.detail ?? ''}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
