/**
 * When the global search asks the server and when it shows its results (SPEC §5). One
 * module for the navbar box and the command palette:
 * - a search fires only when the text after an optional prefix (anything up to the first
 *   colon, e.g. `cus:` in `cus: acme`), trimmed, has at least {@link SEARCH_MIN_TERM}
 *   characters;
 * - the results appear only when the whole query, trimmed, has at least
 *   {@link SEARCH_MIN_PANEL} characters (and a search fires: a panel that no search can
 *   fill is not shown);
 * - the request waits {@link SEARCH_DEBOUNCE_MS} after the last change;
 * - until the results show, a hint says how much more to type ({@link searchHint}).
 */
export const SEARCH_MIN_TERM = 4;
export const SEARCH_MIN_PANEL = 6;
export const SEARCH_DEBOUNCE_MS = 1000;

/** The searched text: what follows the first colon (if any), trimmed. `cus: acme` → `acme`. */
export function searchTerm(query: string): string {
  const colon = query.indexOf(':');
  return (colon < 0 ? query : query.slice(colon + 1)).trim();
}

/** Whether typing `query` sends a search. */
export function searchFires(query: string): boolean {
  return searchTerm(query).length >= SEARCH_MIN_TERM;
}

/** Whether the results of `query` are shown. */
export function searchShowsResults(query: string): boolean {
  return searchFires(query) && query.trim().length >= SEARCH_MIN_PANEL;
}

/**
 * What to tell someone whose query shows no results yet because it is too short (nothing
 * and no search would look broken): "Type at least 6 characters to see results"; with a
 * prefix, the term after it too. Null when the query is empty or its results are shown.
 */
export function searchHint(query: string): string | null {
  const trimmed = query.trim();
  if (!trimmed || searchShowsResults(query)) return null;
  if (trimmed.length < SEARCH_MIN_PANEL) return `Type at least ${SEARCH_MIN_PANEL} characters to see results`;
  return `Type at least ${SEARCH_MIN_TERM} characters after the colon to see results`;
}
