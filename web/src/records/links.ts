/**
 * Links of the record pages, built with the app's path helpers (src/app/paths.ts, where
 * every path is spelled once). A kind whose route table has no view page (billing,
 * budget, employee, …: SPEC §2) gets no view link.
 */
import { listPath as appListPath, paths, recordRoute, recordRouteOfModel, viewPath as appViewPath } from '../app/paths';
import type { Kind } from './types';

/** `/<route>/list`, with an optional search (`?…`); the route segment comes from the registry. */
export function listPath(kind: Pick<Kind, 'name' | 'route'>, search = ''): string {
  const route = recordRouteOfModel(kind.name) ?? recordRoute(kind.route);
  return (route ? appListPath(route.segment) : `/${kind.route}/list`) + search;
}

/** Whether the app has a view page for records of this kind. */
export function hasViewPage(kind: Pick<Kind, 'name' | 'route'>): boolean {
  return !!(recordRouteOfModel(kind.name) ?? recordRoute(kind.route))?.view;
}

/** `/<route>/view[/<tab>]?id=42`, or undefined when the kind has no view page. */
export function viewPath(kind: Pick<Kind, 'name' | 'route'>, id: number | string, tab?: string): string | undefined {
  const route = recordRouteOfModel(kind.name) ?? recordRoute(kind.route);
  return route?.view ? appViewPath(route.segment, id, tab) : undefined;
}

/** `/list/edit?type=<record type>&id=<saved list id>`; without id, a new list. */
export function listEditorPath(type?: string, id?: string): string {
  const params = new URLSearchParams();
  if (type) params.set('type', type);
  if (id) params.set('id', id);
  const qs = params.toString();
  return qs ? `${paths.listEdit}?${qs}` : paths.listEdit;
}
