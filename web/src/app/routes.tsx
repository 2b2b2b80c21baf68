import { Navigate, redirect, type LoaderFunction, type RouteObject } from 'react-router';
import type { ComponentType } from 'react';
import { PageSpinner } from '../shell/LoadingOverlay';
import { hideAlertOnNavigation, requireAuth, revalidateGuard, revalidateOnNavigation } from './guard';
import { meta, TAB_PARAM, type RouteMeta } from './meta';
import { paths, recordRoutes, type RecordRoute, type TabSet } from './paths';
import { prefetchDashboard } from './prefetch';
import { RootErrorBoundary, RootLayout } from './RootLayout';

/**
 * A lazy route module: the default export is the page; a module may also export the
 * route's `loader` and `ErrorBoundary`.
 */
interface PageModule {
  default: ComponentType;
  loader?: LoaderFunction;
  ErrorBoundary?: ComponentType;
}

function page(load: () => Promise<PageModule>): RouteObject['lazy'] {
  return async () => {
    const module = await load();
    const route: Pick<RouteObject, 'Component' | 'loader' | 'ErrorBoundary'> = { Component: module.default };
    if (module.loader) route.loader = module.loader;
    if (module.ErrorBoundary) route.ErrorBoundary = module.ErrorBoundary;
    return route;
  };
}

// The record pages are generic, driven by the kind registry (src/records); the route's
// meta tells them which kind (`model`) and which page (isList/isView/isCreate/isEdit).
const recordList = page(() => import('../records/RecordListPage'));
const recordView = page(() => import('../records/RecordViewPage'));
const recordTab = page(() => import('../records/RecordTabPage'));
const recordForm = page(() => import('../records/RecordFormPage'));
const reports = page(() => import('../pages/ReportsPage'));

/** Redirects to /404: for paths that only exist as parents (/project alone). */
const toNotFound = () => redirect(paths.notFound);

/** Sub-tab routes of a view/create/edit page: named child paths, then the catch-all. */
function tabRoutes(set: TabSet): RouteObject[] {
  const named: RouteObject[] = set.named.map((tab) => ({ path: tab, handle: meta({ tab }), lazy: recordTab }));
  return set.catchAll ? [...named, { path: `:${TAB_PARAM}`, lazy: recordTab }] : named;
}

function recordPage(path: string, flags: RouteMeta, lazy: RouteObject['lazy'], set?: TabSet): RouteObject {
  const route: RouteObject = { path, handle: meta(flags), lazy };
  if (set && (set.named.length > 0 || set.catchAll)) route.children = tabRoutes(set);
  return route;
}

/** One record kind: a parent route carrying `model`, with its list/view/create/edit pages. */
function recordRouteObject(spec: RecordRoute): RouteObject {
  const label = spec.label.toLowerCase();
  const children: RouteObject[] = [
    { index: true, loader: toNotFound },
    recordPage('list', { isList: true, title: spec.plural }, recordList),
  ];
  if (spec.view) children.push(recordPage('view', { isView: true, title: spec.label }, recordView, spec.view));
  if (spec.create) children.push(recordPage('create', { isCreate: true, title: `New ${label}` }, recordForm, spec.create));
  if (spec.edit) children.push(recordPage('edit', { isEdit: true, title: `Edit ${label}` }, recordForm, spec.edit));
  return { id: `records:${spec.segment}`, path: `/${spec.segment}`, handle: meta({ model: spec.model }), children };
}

/**
 * The route table (SPEC §2): every path of the app, its meta flags and its guard.
 *
 * - The root route runs guard step 1 (hide any alert) on every navigation.
 * - Public routes (no navbar) sit directly under the root: step 2, login is always allowed.
 * - Everything that requires authentication sits under the `authenticated` branch, whose
 *   loader is guard steps 3–4. Each record kind is one parent route there carrying its
 *   `model`, with list/view/create/edit children flagged isList/isView/isCreate/isEdit;
 *   view (and some create/edit) pages have their sub-tabs as child routes.
 * - Unknown paths redirect to /404.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    HydrateFallback: PageSpinner,
    ErrorBoundary: RootErrorBoundary,
    loader: hideAlertOnNavigation,
    shouldRevalidate: revalidateOnNavigation,
    children: [
      {
        path: paths.login,
        handle: meta({ requiresAuth: false, showNavbar: false, title: 'Sign in' }),
        lazy: page(() => import('../pages/LoginPage')),
      },
      {
        path: paths.notFound,
        handle: meta({ requiresAuth: false, showNavbar: false, title: 'Page not found' }),
        lazy: page(() => import('../pages/NotFoundPage')),
      },
      {
        id: 'authenticated',
        loader: requireAuth,
        shouldRevalidate: revalidateGuard,
        handle: meta({ requiresAuth: true, showNavbar: true }),
        children: [
          {
            path: paths.home,
            handle: meta({ model: 'project' }),
            children: [
              {
                index: true,
                handle: meta({ title: 'Dashboard' }),
                loader: prefetchDashboard,
                lazy: page(() => import('../pages/DashboardPage')),
              },
            ],
          },
          {
            path: paths.listEdit,
            handle: meta({ title: 'List editor' }),
            lazy: page(() => import('../pages/ListEditorPage')),
          },
          {
            path: paths.feedback,
            handle: meta({ title: 'Feedback' }),
            lazy: page(() => import('../pages/FeedbackPage')),
          },
          {
            path: paths.feedbackSubmissions,
            handle: meta({ isList: true, title: 'Feedback received' }),
            lazy: page(() => import('../pages/FeedbackSubmissionsPage')),
          },
          {
            path: paths.audit,
            handle: meta({ isList: true, title: 'Audit log' }),
            lazy: page(() => import('../pages/AuditPage')),
          },
          {
            path: paths.sync,
            handle: meta({ title: 'ERP sync' }),
            lazy: page(() => import('../pages/SyncStatusPage')),
          },
          {
            path: '/reports',
            children: [
              { index: true, loader: toNotFound },
              { path: 'list', handle: meta({ isList: true, title: 'Reports' }), lazy: reports },
              { path: 'create', handle: meta({ isCreate: true, title: 'New report' }), lazy: reports },
              { path: ':reportId', handle: meta({ isView: true, title: 'Report' }), lazy: reports },
            ],
          },
          ...recordRoutes.map(recordRouteObject),
        ],
      },
      {
        path: '*',
        loader: toNotFound,
        Component: () => <Navigate to={paths.notFound} replace />,
      },
    ],
  },
];
