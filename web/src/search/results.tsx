import { Loader, VisuallyHidden } from '@mantine/core';
import type { SearchResult } from './api';
import type { ListOption } from './OptionList';
import classes from './Search.module.css';

/** A search result as a list option: its name, and its kind, number and status as detail. */
export interface ResultOption extends ListOption {
  result: SearchResult;
}

export function resultOptions(results: readonly SearchResult[]): ResultOption[] {
  return results.map((result) => ({ key: `${result.type}:${result.id}`, name: result.name, detail: result.detail, result }));
}

/** Opens a result's view page in a new tab (SPEC §2), without giving it this window. */
export function openResult(result: SearchResult): void {
  window.open(result.domain, '_blank', 'noopener');
}

/**
 * What the results area says (SPEC §4 "Search"): a spinner while searching, "No Results"
 * after an empty answer (or a failure), else the number of results for screen readers.
 */
export function SearchStatus({ loading, count }: { loading: boolean; count: number }) {
  if (loading) {
    return (
      <div role="status" className={classes.status}>
        <Loader size="sm" aria-hidden="true" />
        <VisuallyHidden>Searching…</VisuallyHidden>
      </div>
    );
  }
  if (count === 0) {
    return (
      <div role="status" className={classes.status}>
        No Results
      </div>
    );
  }
  return <VisuallyHidden role="status">{count === 1 ? '1 result' : `${count} results`}</VisuallyHidden>;
}
