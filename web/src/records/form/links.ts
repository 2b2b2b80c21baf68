/**
 * Links and sub-tabs of the create and edit pages, from the route table (src/app/paths.ts):
 * a kind gets a link only when the app has that page for it (SPEC §2). Whether the role
 * may use it is the kind's `canCreate` / `canEdit` (GET /kinds), checked by the caller.
 */
import { createPath, editPath, recordPagePath, recordRoute, recordRouteOfModel, type RecordRoute } from '../../app/paths';
import type { Kind, KindTab } from '../types';

export type FormPage = 'create' | 'edit';

function routeOf(kind: Pick<Kind, 'name' | 'route'>): RecordRoute | undefined {
  return recordRouteOfModel(kind.name) ?? recordRoute(kind.route);
}

/** `/<route>/create[/<tab>]`, or undefined when the kind has no create page. */
export function createPathOf(kind: Pick<Kind, 'name' | 'route'>, tab?: string): string | undefined {
  const route = routeOf(kind);
  return route?.create ? createPath(route.segment, tab) : undefined;
}

/** `/<route>/edit[/<tab>]?id=42`, or undefined when the kind has no edit page. */
export function editPathOf(kind: Pick<Kind, 'name' | 'route'>, id: number, tab?: string): string | undefined {
  const route = routeOf(kind);
  return route?.edit ? editPath(route.segment, id, tab) : undefined;
}

/** `/<route>/<page>`: the form page's path without tab or id; undefined when the kind has none. */
export function formBasePath(kind: Pick<Kind, 'name' | 'route'>, page: FormPage): string | undefined {
  const route = routeOf(kind);
  return route?.[page] ? recordPagePath(route.segment, page) : undefined;
}

/** The record's tabs the route table shows on this form page (named tab routes, or a catch-all). */
export function formTabs(kind: Kind, page: FormPage, tabs: readonly KindTab[] = kind.tabs): KindTab[] {
  const set = routeOf(kind)?.[page];
  if (!set) return [];
  return tabs.filter((t) => set.catchAll || set.named.includes(t.name));
}

