import { useEffect, useRef, useState } from 'react';
import { useDebouncer } from '../../components/ui/DebouncedInput';
import { searchGrouped, type GroupedSearch, type SearchGroup, type SearchResult } from '../records';
import { SEARCH_DEBOUNCE_MS, searchFires, searchHint, searchShowsResults } from './thresholds';

const nothing: GroupedSearch = { results: [], groups: [], text: '' };

export interface RecordSearch {
  query: string;
  /** The answer to the newest search; [] while typing, searching, or after a failure. */
  results: SearchResult[];
  /** The kinds of the newest answer with their counts; [] like `results`. */
  groups: SearchGroup[];
  /** The text the newest answer searched (the query without its prefix). */
  text: string;
  /** A search is waiting for its debounce or for the server. */
  loading: boolean;
  /** Whether the results (or the spinner, or "No Results") are to be shown (SPEC §5). */
  showsResults: boolean;
  /** While the query is too short to show results: how much more to type; else null. */
  hint: string | null;
  /** Every change of the text: clears the results and (re)starts the debounced search. */
  change(query: string): void;
  /** Empties the query and the results; drops a pending or running search. */
  clear(): void;
}

/**
 * The state of one global search box (SPEC §4 "Search", §5, §8), shared by the navbar box
 * and the command palette. Typing clears the old results and, when the query is long
 * enough to search, shows the spinner; the search fires {@link SEARCH_DEBOUNCE_MS} after
 * the last change and its answer replaces the spinner. A newer change aborts the running
 * request. A failure is logged, empties the results and stops the spinner.
 */
export function useRecordSearch(): RecordSearch {
  const [query, setQuery] = useState('');
  const [answer, setAnswer] = useState<GroupedSearch>(nothing);
  const [loading, setLoading] = useState(false);
  const running = useRef<AbortController | null>(null);

  const abort = () => {
    running.current?.abort();
    running.current = null;
  };

  const run = (value: string) => {
    abort();
    const controller = new AbortController();
    running.current = controller;
    searchGrouped(value.trim(), { signal: controller.signal }).then(
      (found) => {
        if (controller.signal.aborted) return;
        running.current = null;
        setAnswer(found);
        setLoading(false);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        running.current = null;
        console.error('Global search failed:', error);
        setAnswer(nothing);
        setLoading(false);
      },
    );
  };

  const debouncer = useDebouncer<undefined>(run, { delay: SEARCH_DEBOUNCE_MS });

  useEffect(() => () => running.current?.abort(), []);

  const change = (value: string) => {
    abort();
    setQuery(value);
    setAnswer(nothing);
    const fires = searchFires(value);
    setLoading(fires);
    if (fires) debouncer.handle(value, undefined);
    else debouncer.cancel();
  };

  return { query, ...answer, loading, showsResults: searchShowsResults(query), hint: searchHint(query), change, clear: () => change('') };
}
