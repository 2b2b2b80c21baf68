import { Navigate, redirect, type LoaderFunction, type RouteObject } from 'react-router';
import type { ComponentType } from 'react';
import { PageSpinner } from '../shell/LoadingOverlay';
import { hideAlertOnNavigation, requireAuth, revalidateGuard, revalidateOnNavigation } from './guard';
import { meta, TAB_PARAM, type RouteMeta } from './meta';
import { KIND_PARAM, paths, PRINT_SEGMENT } from './paths';
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

// The record pages are generic, driven by the kind registry (GET /api/v1/kinds): one
// parameterised route serves every kind, its `:kind` the kind's route segment. The
// parent (records/KindPages) resolves it against the cached registry: an unknown kind is
// the not-found page; it also names the page in the document title. The route's meta
// says which page it is (isList/isView/isCreate/isEdit).
const kindPages = page(() => import('../records/KindPages'));
const recordList = page(() => import('../records/RecordListPage'));
const recordView = page(() => import('../records/RecordViewPage'));
const recordTab = page(() => import('../records/RecordTabPage'));
const recordForm = page(() => import('../records/RecordFormPage'));
const recordPrint = page(() => import('../records/print/RecordPrintPage'));
const reports = page(() => import('../pages/ReportsPage'));
// Users, roles and menus: one module (see pages/AdminPage).
const admin = page(() => import('../pages/AdminPage'));

/** Redirects to /404: for paths that only exist as parents (/project alone). */
const toNotFound = () => redirect(paths.notFound);

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

/**
 * The route table (SPEC §2): every path of the app, its meta flags and its guard.
 *
 * - The root route runs guard step 1 (hide any alert) on every navigation.
 * - Public routes (no navbar) sit directly under the root: step 2, login is always allowed.
 * - Everything that requires authentication sits under the `authenticated` branch, whose
 *   loader is guard steps 3–4. The record kinds share one parameterised parent route
 *   there ({@link recordRoutes}), with list/view/create/edit children flagged
 *   isList/isView/isCreate/isEdit and the sub-tabs of view, create and edit pages as
 *   their child routes. The fixed paths (/reports/list, /list/edit, …) rank above it.
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
            path: paths.adminUsers,
            handle: meta({ isList: true, title: 'Users' }),
            lazy: admin,
          },
          {
            path: paths.adminRoles,
            handle: meta({ title: 'Roles' }),
            lazy: admin,
          },
          {
            path: paths.adminMenus,
            handle: meta({ title: 'Menus' }),
            lazy: admin,
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
          recordRoutes,
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
