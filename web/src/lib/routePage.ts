import type { ComponentType } from 'react';
import { redirect, type LoaderFunction, type RouteObject } from 'react-router';
import { paths } from './paths';

/**
 * A lazy route module: the default export is the page; a module may also export the
 * route's `loader` and `ErrorBoundary`.
 */
export interface PageModule {
  default: ComponentType;
  loader?: LoaderFunction;
  ErrorBoundary?: ComponentType;
}

export function page(load: () => Promise<PageModule>): RouteObject['lazy'] {
  return async () => {
    const module = await load();
    const route: Pick<RouteObject, 'Component' | 'loader' | 'ErrorBoundary'> = { Component: module.default };
    if (module.loader) route.loader = module.loader;
    if (module.ErrorBoundary) route.ErrorBoundary = module.ErrorBoundary;
    return route;
  };
}

/** Redirects to /404: for paths that only exist as parents (/project alone). */
export const toNotFound = () => redirect(paths.notFound);
