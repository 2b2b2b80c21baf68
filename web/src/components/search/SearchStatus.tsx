import { Loader, VisuallyHidden } from '@mantine/core';
import classes from './Search.module.css';

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
