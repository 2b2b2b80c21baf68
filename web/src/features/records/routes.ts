import type { RouteObject } from 'react-router';
import { meta, TAB_PARAM, type RouteMeta } from '../../lib/meta';
import { KIND_PARAM, PRINT_SEGMENT } from '../../lib/paths';
import { page, toNotFound } from '../../lib/routePage';

// The record pages are generic, driven by the kind registry (GET /api/v1/kinds): one
// parameterised route serves every kind, its `:kind` the kind's route segment. The
// parent (KindPages) resolves it against the cached registry: an unknown kind is
// the not-found page; it also names the page in the document title. The route's meta
// says which page it is (isList/isView/isCreate/isEdit).
const kindPages = page(() => import('./KindPages'));
const recordList = page(() => import('./RecordListPage'));
const recordView = page(() => import('./RecordViewPage'));
const recordTab = page(() => import('./RecordTabPage'));
const recordForm = page(() => import('./RecordFormPage'));
const recordPrint = page(() => import('./print/RecordPrintPage'));

/** A record page with its sub-tabs (/project/view/billing): any tab the record has. */
function tabbedPage(path: string, flags: RouteMeta, lazy: RouteObject['lazy']): RouteObject {
  return { path, handle: meta(flags), lazy, children: [{ path: `:${TAB_PARAM}`, lazy: recordTab }] };
}

/**
 * Every record kind's pages (SPEC §2 route shapes): /<route>/list, /<route>/view?id=,
 * /<route>/view/<tab>?id=, /<route>/create[/<tab>], /<route>/edit[/<tab>]?id=, and the
 * printable document /<route>/view/print?id= (no navbar).
 */
export const recordRoutes: RouteObject = {
  id: 'records',
  path: `:${KIND_PARAM}`,
  lazy: kindPages,
  children: [
    { index: true, loader: toNotFound },
    { path: 'list', handle: meta({ isList: true }), lazy: recordList },
    tabbedPage('view', { isView: true }, recordView),
    { path: `view/${PRINT_SEGMENT}`, handle: meta({ isView: true, showNavbar: false }), lazy: recordPrint },
    tabbedPage('create', { isCreate: true }, recordForm),
    tabbedPage('edit', { isEdit: true }, recordForm),
  ],
};
