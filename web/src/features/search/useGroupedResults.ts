import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { kindsQuery, openResult } from '../records';
import { groupedSections, sectionOptions, type SearchOption } from './groups';
import type { OptionSection } from '../../components/search/OptionList';
import type { RecordSearch } from './useRecordSearch';

export interface GroupedResults {
  sections: OptionSection<SearchOption>[];
  /** The options of all sections, in order (for the highlight). */
  options: SearchOption[];
  /** Opens an option: a result in a new tab (SPEC §2), a "See all" in the app. */
  open(option: SearchOption): void;
}

/** The answer of a {@link RecordSearch} grouped by kind (see groups.ts), with the kinds' labels from the registry. */
export function useGroupedResults(search: Pick<RecordSearch, 'results' | 'groups' | 'text' | 'showsResults'>): GroupedResults {
  const { results, groups, text } = search;
  // The kinds name the groups: asked for (once) as soon as results are to be shown, so
  // that they are in before the answer.
  const kinds = useQuery({ ...kindsQuery(), enabled: search.showsResults || groups.length > 0 });
  const navigate = useNavigate();
  const sections = useMemo(() => groupedSections({ results, groups, text }, kinds.data), [results, groups, text, kinds.data]);
  const options = useMemo(() => sectionOptions(sections), [sections]);
  const open = (option: SearchOption) => {
    if ('result' in option) openResult(option.result);
    else void navigate(option.to);
  };
  return { sections, options, open };
}
