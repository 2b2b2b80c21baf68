/**
 * Links of the record pages: the app's path helpers (src/lib/paths.ts, where every path is
 * spelled once) with the kind's route segment from the registry. Every kind has a list
 * and a view page; create and edit pages are there for the kinds whose registry entry
 * allows them (see form/links.ts).
 */
import { listPath as appListPath, paths, printPath as appPrintPath, viewPath as appViewPath } from '../../lib/paths';
import type { Kind } from './types';

/** `/<route>/list`, with an optional search (`?…`). */
export function listPath(kind: Pick<Kind, 'route'>, search = ''): string {
  return appListPath(kind.route) + search;
}

/**
 * Whether records of this kind have a view page: every kind of the registry has one now.
 * @deprecated Always true; link rows of any kind. Goes once no caller asks.
 */
export function hasViewPage(_kind: Pick<Kind, 'route'>): boolean {
  return true;
}

/** `/<route>/view[/<tab>]?id=42`. */
export function viewPath(kind: Pick<Kind, 'route'>, id: number | string, tab?: string): string {
  return appViewPath(kind.route, id, tab);
}

/** `/<route>/view/print?id=42`: the record as a printable document. */
export function printPath(kind: Pick<Kind, 'route'>, id: number | string): string {
  return appPrintPath(kind.route, id);
}

/** `/list/edit?type=<record type>&id=<saved list id>`; without id, a new list. */
export function listEditorPath(type?: string, id?: string): string {
  const params = new URLSearchParams();
  if (type) params.set('type', type);
  if (id) params.set('id', id);
  const qs = params.toString();
  return qs ? `${paths.listEdit}?${qs}` : paths.listEdit;
}
