import type { SearchResult } from './searchApi';
import type { ListOption } from '../../components/search/OptionList';

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
