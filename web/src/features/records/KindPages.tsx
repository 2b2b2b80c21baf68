/**
 * The parent of every record page (/:kind/…, routes.ts): resolves the route's kind
 * segment against the kind registry (`GET /api/v1/kinds`, cached for the session), so the
 * app has no table of kinds of its own and a new kind needs no app change.
 *
 * - While the registry loads, a placeholder; when it fails, the error with a retry.
 * - A segment naming a kind the role may not see (a project manager's /invoice/list) is
 *   "Not available to your role", inside the layout; a segment no kind has is the
 *   not-found page (/404, as any unknown path). Every kind's route comes from
 *   `GET /api/v1/kinds/routes`. So a role switch on a page the new role may not see
 *   never sends the app to /404 before it lands on / (SPEC §2, §4).
 * - It names the page in the document title: "‹Plural› · Portico" on a list,
 *   "‹record name› · ‹kind label› · Portico" on a record's view (and its tabs and print),
 *   "Edit ‹record name› · ‹kind label› · Portico", "New ‹kind label› · Portico".
 */
import { useQuery } from '@tanstack/react-query';
import { Navigate, Outlet, useSearchParams } from 'react-router';
import { useRouteMeta, type RouteMeta } from '../../lib/meta';
import { paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/title';
import { useRouteKind } from './kinds';
import { NotAvailable } from '../../components/RequirePermission';
import { kindRoutesQuery, recordQuery } from './queries';
import { recordIdOf } from './recordId';
import { ErrorBlock, LoadingBlock, RecordErrorBoundary } from './States';
import type { Kind, RecordDetail } from './types';

/** The name a record goes by in titles: its title, else its number. */
export function recordName(record: Pick<RecordDetail, 'title' | 'code'> | undefined): string | undefined {
  return record?.title?.trim() || record?.code?.trim() || undefined;
}

/** The document title's parts of a record page (most specific first; the product name follows). */
export function recordPageTitle(kind: Pick<Kind, 'label' | 'plural'>, page: Pick<RouteMeta, 'isList' | 'isView' | 'isCreate' | 'isEdit'>, name?: string): string[] {
  if (page.isCreate) return [`New ${kind.label.toLowerCase()}`];
  if (page.isEdit) return name ? [`Edit ${name}`, kind.label] : [`Edit ${kind.label.toLowerCase()}`];
  if (page.isView) return name ? [name, kind.label] : [kind.label];
  return [kind.plural];
}

export const ErrorBoundary = RecordErrorBoundary;

export default function KindPages() {
  const { kind, model, isPending, error, refetch } = useRouteKind();
  if (error) return <ErrorBlock error={error} what="the record kinds" onRetry={refetch} />;
  if (isPending) return <LoadingBlock label="Loading…" rows={4} />;
  if (!kind) return <NotForRole route={model} />;
  return (
    <>
      <PageTitle kind={kind} />
      <Outlet />
    </>
  );
}

/**
 * A route segment the role's registry lacks: "Not available to your role" when it is a
 * kind's (the role may not see it), else (or when the routes cannot be had) /404.
 */
export function NotForRole({ route }: { route: string | undefined }) {
  const routes = useQuery(kindRoutesQuery());
  const known = routes.data?.find((k) => k.route === route);
  usePageTitle(known ? [known.plural] : null);
  if (routes.isPending) return <LoadingBlock label="Loading…" rows={4} />;
  if (!known) return <Navigate to={paths.notFound} replace />;
  return <NotAvailable title={known.plural} what={known.plural.toLowerCase()} />;
}

/** Names the page; the record's name comes from the record the page itself loads (never fetched here). */
function PageTitle({ kind }: { kind: Kind }) {
  const page = useRouteMeta();
  const [searchParams] = useSearchParams();
  const id = recordIdOf(searchParams);
  const forRecord = (page.isView || page.isEdit) && id !== null;
  const record = useQuery({ ...recordQuery(kind.name, id ?? 0), enabled: false });
  usePageTitle(recordPageTitle(kind, page, forRecord ? recordName(record.data) : undefined));
  return null;
}
