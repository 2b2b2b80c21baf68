import { useMatches, useParams, type UIMatch } from 'react-router';

/**
 * Route meta flags (SPEC §2), carried in each route's `handle`. A child's flags override
 * its parent's, so a parent route sets `model`, `requiresAuth` and `showNavbar` once for
 * all of its pages.
 */
export interface RouteMeta {
  /** The navigation bar shows, when the user is also authenticated. */
  showNavbar?: boolean;
  /** Not rendered for an unauthenticated user; the guard redirects to /login. */
  requiresAuth?: boolean;
  isList?: boolean;
  isView?: boolean;
  isCreate?: boolean;
  isEdit?: boolean;
  /** Record type of the pages below this route, e.g. "project". */
  model?: string;
  /** Document title of the page (a tab route keeps its page's title). */
  title?: string;
  /**
   * Name of the record sub-tab a tab route shows: set on named tab routes
   * (/project/view/billing); the catch-all tab route (/project/view/:tab) has the `tab`
   * route parameter instead. Read it with {@link useRouteTab}.
   */
  tab?: string;
}

/** Name of the route parameter of the catch-all tab route: /<kind>/view/:tab. */
export const TAB_PARAM = 'tab';

/** Typed helper for a route's `handle`. */
export function meta(flags: RouteMeta): RouteMeta {
  return flags;
}

function isRouteMeta(handle: unknown): handle is RouteMeta {
  return typeof handle === 'object' && handle !== null;
}

/** Merges the handles of the matched routes, outermost first. */
export function mergeRouteMeta(matches: ReadonlyArray<Pick<UIMatch, 'handle'>>): RouteMeta {
  const merged: RouteMeta = {};
  for (const match of matches) {
    if (isRouteMeta(match.handle)) Object.assign(merged, match.handle);
  }
  return merged;
}

/** The meta flags of the current route. */
export function useRouteMeta(): RouteMeta {
  return mergeRouteMeta(useMatches());
}

/**
 * The record sub-tab the current route shows: the named tab's meta, else the catch-all
 * route's `:tab` parameter; undefined outside tab routes.
 */
export function useRouteTab(): string | undefined {
  const params = useParams();
  const fromMeta = useRouteMeta().tab;
  return fromMeta ?? params[TAB_PARAM];
}
