import { Navigate, type RouteObject } from 'react-router';
import { PageSpinner } from '../features/shell/LoadingOverlay';
import { hideAlertOnNavigation, requireAuth, revalidateGuard, revalidateOnNavigation } from './guard';
import { meta } from '../lib/meta';
import { paths } from '../lib/paths';
import { page, toNotFound } from '../lib/routePage';
import { recordRoutes } from '../features/records/routes';
import { prefetchDashboard } from './prefetch';
import { RootErrorBoundary, RootLayout } from './RootLayout';

const reports = page(() => import('../features/reports/ReportsPage'));
// Users, roles and menus: one module (see features/admin/AdminPage).
const admin = page(() => import('../features/admin/AdminPage'));

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
        lazy: page(() => import('../features/auth/LoginPage')),
      },
      {
        path: paths.notFound,
        handle: meta({ requiresAuth: false, showNavbar: false, title: 'Page not found' }),
        lazy: page(() => import('./NotFoundPage')),
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
                lazy: page(() => import('../features/dashboard/DashboardPage')),
              },
            ],
          },
          {
            path: paths.listEdit,
            handle: meta({ title: 'List editor' }),
            lazy: page(() => import('../features/records/ListEditorPage')),
          },
          {
            path: paths.feedback,
            handle: meta({ title: 'Feedback' }),
            lazy: page(() => import('../features/feedback/FeedbackPage')),
          },
          {
            path: paths.feedbackSubmissions,
            handle: meta({ isList: true, title: 'Feedback received' }),
            lazy: page(() => import('../features/admin/FeedbackSubmissionsPage')),
          },
          {
            path: paths.audit,
            handle: meta({ isList: true, title: 'Audit log' }),
            lazy: page(() => import('../features/admin/AuditPage')),
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
            lazy: page(() => import('../features/admin/SyncStatusPage')),
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
