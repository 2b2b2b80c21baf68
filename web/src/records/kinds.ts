/**
 * The kind registry on the client: which kind a page shows, and lookups by record type
 * or route segment. Pages are generic; everything kind-specific comes from here.
 */
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { useRouteMeta } from '../app/meta';
import { kindsQuery } from './queries';
import type { Kind, KindField } from './types';

export function kindByName(kinds: readonly Kind[] | undefined, name: string | undefined): Kind | undefined {
  return name ? kinds?.find((k) => k.name === name) : undefined;
}

export function kindByRoute(kinds: readonly Kind[] | undefined, route: string | undefined): Kind | undefined {
  return route ? kinds?.find((k) => k.route === route) : undefined;
}

/** The kind of a URL path: its first segment is the kind's route (`/project/list`). */
export function kindOfPath(kinds: readonly Kind[] | undefined, pathname: string): Kind | undefined {
  return kindByRoute(kinds, pathname.split('/').filter(Boolean)[0]);
}

export function fieldOf(kind: Kind | undefined, name: string): KindField | undefined {
  return kind?.fields.find((f) => f.name === name);
}

/** The kind's field on a promoted column (title, code, status, parent_id, project_id, amount, occurred_on). */
export function fieldOnColumn(kind: Kind | undefined, column: string): KindField | undefined {
  return kind?.fields.find((f) => f.column === column);
}

export interface RouteKind {
  kind: Kind | undefined;
  kinds: Kind[] | undefined;
  /** The record type the route names (its meta `model`), if any. */
  model: string | undefined;
  isPending: boolean;
  error: Error | null;
  refetch: () => void;
}

/**
 * The kind of the current route: the route meta's `model` (the SPEC record type set on
 * the kind's parent route), else the kind whose route segment starts the path.
 */
export function useRouteKind(): RouteKind {
  const { model } = useRouteMeta();
  const { pathname } = useLocation();
  const query = useQuery(kindsQuery());
  const kind = kindByName(query.data, model) ?? kindOfPath(query.data, pathname);
  return {
    kind,
    kinds: query.data,
    model,
    isPending: query.isPending,
    error: query.error,
    refetch: () => void query.refetch(),
  };
}
