import { Navigate, redirect, type RouteObject } from 'react-router';
import type { ComponentType } from 'react';
import { PageSpinner } from '../shell/LoadingOverlay';
import { hideAlertOnNavigation, requireAuth, revalidateGuard, revalidateOnNavigation } from './guard';
import { meta } from './meta';
import { paths } from './paths';
import { RootErrorBoundary, RootLayout } from './RootLayout';

/** Lazy route module whose default export is the page component. */
function page(load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] {
  return async () => ({ Component: (await load()).default });
}

/**
 * The route table: every path of the app, its meta flags and its guard, in one place.
 *
 * - Public routes (no navbar) sit directly under the root.
 * - Everything that requires authentication sits under the `authenticated` branch, whose
 *   loader is the guard. Each record kind adds one parent route there carrying its `model`,
 *   with list/view/create/edit children flagged isList/isView/isCreate/isEdit.
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
                lazy: page(() => import('../pages/DashboardPage')),
              },
            ],
          },
        ],
      },
      {
        path: '*',
        loader: () => redirect(paths.notFound),
        Component: () => <Navigate to={paths.notFound} replace />,
      },
    ],
  },
];
