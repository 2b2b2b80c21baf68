import { lazy, Suspense, type MouseEvent } from 'react';
import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { Outlet, isRouteErrorResponse, useRouteError } from 'react-router';
import { useIsAuthenticated } from '../lib/session';
import { AlertArea } from '../features/shell/AlertArea';
import { LoadingOverlay } from '../features/shell/LoadingOverlay';
import { NavbarPlaceholder } from '../features/shell/NavbarPlaceholder';
import { OfflineNotice } from '../features/shell/OfflineNotice';
import { useRouteMeta } from '../lib/meta';
import { useDocumentTitle } from '../lib/title';
import classes from './RootLayout.module.css';

// The navbar (menus, popovers) is its own chunk: the sign-in page never needs it.
const Navbar = lazy(() => import('../features/shell/Navbar').then((m) => ({ default: m.Navbar })));
// The live event stream (and the record queries it refreshes) loads once signed in.
const LiveEvents = lazy(() => import('../features/events/LiveEvents').then((m) => ({ default: m.LiveEvents })));
// The changes kept on this device (saved offline) and their sending, once signed in.
const KeptChanges = lazy(() => import('../features/records/offline/KeptChanges').then((m) => ({ default: m.KeptChanges })));
// Keyboard shortcuts (their letters come from the kind registry) load once signed in.
const Shortcuts = lazy(() => import('../features/shortcuts/Shortcuts').then((m) => ({ default: m.Shortcuts })));

/** Id of the routed view: the skip link's target. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * "Skip to content": the first focusable element, visible when focused. It moves focus to
 * the routed view without touching the URL (a #hash would be a navigation of its own).
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    event.preventDefault();
    main.focus();
    main.scrollIntoView({ block: 'start' });
  };
  return (
    <a href={`#${MAIN_CONTENT_ID}`} className="portico-skip-link" onClick={skip}>
      Skip to content
    </a>
  );
}

/**
 * Root layout (SPEC §2): navbar when the route has showNavbar and the user is
 * authenticated; the alert area always; the routed view when the user is authenticated or
 * the route does not require it (two layouts: with or without navbar spacing); the
 * loading overlay while loading; the live event stream and the keyboard shortcuts while authenticated;
 * a notice while the connection is lost.
 */
export function RootLayout() {
  const routeMeta = useRouteMeta();
  const authenticated = useIsAuthenticated();
  const withNavbar = !!routeMeta.showNavbar && authenticated;
  const mayRender = authenticated || !routeMeta.requiresAuth;

  useDocumentTitle(routeMeta.title);

  return (
    <div className={withNavbar ? classes.withNavbar : classes.bare} data-layout={withNavbar ? 'navbar' : 'bare'}>
      <SkipLink />
      {authenticated && (
        <Suspense fallback={null}>
          <LiveEvents />
          <Shortcuts />
        </Suspense>
      )}
      {/* The app's chrome: on paper only the page shows. */}
      <div className={classes.chrome}>
        <OfflineNotice />
        {authenticated && (
          <Suspense fallback={null}>
            <KeptChanges />
          </Suspense>
        )}
        {withNavbar && (
          <Suspense fallback={<NavbarPlaceholder />}>
            <Navbar />
          </Suspense>
        )}
        <AlertArea />
      </div>
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className={classes.main}>
        {mayRender && <Outlet />}
      </main>
      <LoadingOverlay />
    </div>
  );
}

/** Shown when a loader, a lazy page chunk or a render throws. */
export function RootErrorBoundary() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <Container size="xs" className={classes.error}>
      <Stack align="center" gap="md">
        <Title order={1}>Something went wrong</Title>
        <Text c="dimmed" ta="center">
          {detail}
        </Text>
        <Button onClick={() => window.location.reload()}>Reload the page</Button>
      </Stack>
    </Container>
  );
}
