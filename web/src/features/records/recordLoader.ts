import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { appQueryClient } from '../../lib/queryClient';
import { isAuthenticated } from '../../lib/session/store';
import { kindOfPath } from './kinds';
import { loaderKinds } from './queries';
import { recordIdOf } from './recordId';
import type { Kind } from './types';

/**
 * A record page's route loader: once there is a session and the kinds are known, it runs
 * `prefetch` for the record the URL names (its kind's route and `?id=`), so the page's data
 * loads while its chunk does. It runs beside the guard, and without a session does nothing.
 */
export function recordLoader(prefetch: (queryClient: QueryClient, kind: Kind, id: number, url: URL) => void) {
  return async ({ request }: LoaderFunctionArgs): Promise<null> => {
    const queryClient = appQueryClient();
    if (!queryClient || !isAuthenticated()) return null;
    const url = new URL(request.url);
    const id = recordIdOf(url.searchParams);
    const kinds = await loaderKinds(queryClient);
    const kind = kindOfPath(kinds, url.pathname);
    if (kind && id) prefetch(queryClient, kind, id, url);
    return null;
  };
}
