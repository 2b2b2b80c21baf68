/**
 * The document title, set in this one place: "‹record name› · ‹kind label› · Portico" on a
 * record's pages, "‹Plural› · Portico" on a list, "‹route title› · Portico" elsewhere.
 *
 * A route names its page with the `title` of its meta (static pages). A page whose name
 * depends on data (a record's) names it with {@link usePageTitle} while it is mounted,
 * which wins over the route's title. The root layout is the only writer of
 * `document.title` ({@link useDocumentTitle}), so parent and child effects cannot race.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import { config } from './config';

/** Separator of the title's parts. */
const SEPARATOR = ' · ';

/** The parts, most specific first, then the product name: "Acme · Project · Portico". */
export function documentTitle(parts: readonly (string | null | undefined)[]): string {
  return [...parts.map((p) => p?.trim()).filter((p): p is string => !!p), config.productName].join(SEPARATOR);
}

const usePageTitleStore = create<{ parts: readonly string[] | null }>(() => ({ parts: null }));

/**
 * Names the current page in the document title while the calling component is mounted
 * (null names nothing: the route's title stays). Empty parts are left out.
 */
export function usePageTitle(parts: readonly (string | null | undefined)[] | null): void {
  const key = parts ? JSON.stringify(parts.map((p) => p?.trim()).filter(Boolean)) : null;
  useEffect(() => {
    if (key === null) return undefined;
    usePageTitleStore.setState({ parts: JSON.parse(key) as string[] });
    return () => usePageTitleStore.setState({ parts: null });
  }, [key]);
}

/** The root layout's hook: keeps `document.title` to the page's name, else the route's title. */
export function useDocumentTitle(routeTitle: string | undefined): void {
  const pageParts = usePageTitleStore((s) => s.parts);
  const title = documentTitle(pageParts ?? [routeTitle]);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
