/**
 * The global search's results grouped by kind (issue 16): one section per kind, named by
 * the kind's plural and its count ("Projects · 12"), holding that kind's results in rank
 * order and, last, a "See all" entry that opens the kind's list filtered by the same text.
 * Kinds come in the server's order (those among the results first, by their best result).
 */
import { formatCount, listPath, listSearchString, withQuery, type Kind, type GroupedSearch, type SearchGroup, resultOptions, type ResultOption } from '../records';
import type { ListOption, OptionSection } from '../../components/search/OptionList';

/** An entry that leads to a page of the app (a group's "See all": the kind's list, filtered by the searched text). */
export interface PathOption extends ListOption {
  to: string;
}

export type SearchOption = ResultOption | PathOption;

/** A group's count as shown: "12", or "100+" when the server stopped counting. */
export function groupCount(group: SearchGroup): string {
  return formatCount(group.count) + (group.more ? '+' : '');
}

/**
 * The list page of `kind` showing what the search found: its built-in list (every
 * record, so that the list shows what the group counts, whatever saved list the user
 * chose as their default) filtered by `text`.
 */
export function seeAllPath(kind: Pick<Kind, 'name' | 'route' | 'defaultList'>, text: string): string {
  return listPath(kind, listSearchString(withQuery({ list: kind.defaultList, after: [], hide: [] }, text)));
}

/**
 * The sections of a grouped answer. Without the kinds (not loaded yet) the results are one
 * unnamed section. A group the list's filter does not find (count 0: the search matched
 * more loosely, e.g. across accents) keeps its results and has no "See all".
 */
export function groupedSections(answer: Pick<GroupedSearch, 'results' | 'groups' | 'text'>, kinds: readonly Kind[] | undefined): OptionSection<SearchOption>[] {
  const all = resultOptions(answer.results);
  if (!kinds) return all.length > 0 ? [{ options: all }] : [];
  const sections: OptionSection<SearchOption>[] = [];
  const grouped = new Set<string>();
  for (const group of answer.groups) {
    const kind = kinds.find((k) => k.name === group.type);
    if (!kind) continue;
    grouped.add(kind.name);
    const options: SearchOption[] = all.filter((o) => o.result.type === kind.name);
    if (group.count > 0) {
      const plural = kind.plural.toLowerCase();
      options.push({ key: `see-all:${kind.name}`, name: `See all ${plural}`, detail: `${groupCount(group)} found`, to: seeAllPath(kind, answer.text), link: true });
    }
    sections.push({ name: group.count > 0 ? `${kind.plural} · ${groupCount(group)}` : kind.plural, options });
  }
  const rest = all.filter((o) => !grouped.has(o.result.type));
  if (rest.length > 0) sections.push({ name: 'Other records', options: rest });
  return sections;
}

/** The options of `sections` in display order (what the arrow keys walk). */
export function sectionOptions<T extends ListOption>(sections: readonly OptionSection<T>[]): T[] {
  return sections.flatMap((s) => s.options);
}
