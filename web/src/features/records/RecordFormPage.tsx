/**
 * Create and edit pages (`/<route>/create`, `/<route>/edit?id=42`): one generic page for
 * every writable kind, its form generated from the kind's fields (form/RecordForm).
 *
 * - The page is there only for a role whose `/kinds` answer allows it (canCreate /
 *   canEdit); otherwise it says so.
 * - An edit loads the record first (its values and version).
 * - Sub-tabs of the route table (e.g. /opportunity/edit/credits) show below the form
 *   through the child route (RecordTabPage); the form stays as typed while they change.
 *   On a create page there is no record yet, so a tab says it needs one instead of loading.
 */
import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useOutlet, useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api';
import { useRouteMeta, useRouteTab } from '../../lib/meta';
import { formTabs, createPathOf, editPathOf, type FormPage } from './form/links';
import { RecordForm } from './form/RecordForm';
import { useRouteKind } from './kinds';
import { listPath } from './links';
import { KindCrumb } from './KindCrumb';
import { recordQuery } from './queries';
import { recordIdOf } from './recordId';
import { EmptyBlock, ErrorBlock, LoadingBlock, NoRecordId, RecordErrorBoundary } from './States';
import type { Kind, RecordDetail } from './types';
import classes from './records.module.css';

export const ErrorBoundary = RecordErrorBoundary;

export default function RecordFormPage() {
  const { kind, isPending, error, refetch, model } = useRouteKind();
  const { isEdit } = useRouteMeta();
  const [searchParams] = useSearchParams();
  const id = recordIdOf(searchParams);
  const page: FormPage = isEdit ? 'edit' : 'create';

  if (error) return <ErrorBlock error={error} what="the record kinds" onRetry={refetch} />;
  if (isPending) return <LoadingBlock label="Loading…" rows={4} />;
  if (!kind) return <ErrorBlock error={new ApiError('404', `There is no record type "${model ?? ''}".`, 404)} what="this record type" />;
  if (!(page === 'edit' ? kind.canEdit : kind.canCreate)) {
    return (
      <Alert color="yellow" variant="light" title="Not available to your role" role="alert">
        <Stack gap="xs">
          <Text size="sm">
            Your current role may not {page} {kind.plural.toLowerCase()}.
          </Text>
          <Anchor component={Link} to={listPath(kind)} size="sm">
            Go to {kind.plural.toLowerCase()}
          </Anchor>
        </Stack>
      </Alert>
    );
  }
  if (page === 'create') return <FormLayout key={kind.name} kind={kind} />;
  if (id === null) return <NoRecordId kind={kind} />;
  return <EditPage key={`${kind.name}:${id}`} kind={kind} id={id} />;
}

function EditPage({ kind, id }: { kind: Kind; id: number }) {
  const record = useQuery(recordQuery(kind.name, id));
  const what = `${kind.label.toLowerCase()} ${id}`;
  if (record.isPending) return <LoadingBlock label={`Loading ${what}…`} rows={6} />;
  if (record.error) return <ErrorBlock error={record.error} what={`this ${kind.label.toLowerCase()}`} onRetry={() => void record.refetch()} />;
  return <FormLayout kind={kind} record={record.data} />;
}

/** The page around the form: where it is, its heading, the form, and the sub-tabs. */
function FormLayout({ kind, record }: { kind: Kind; record?: RecordDetail }) {
  const label = kind.label.toLowerCase();
  return (
    <Stack gap="md" className={classes.page} maw={960}>
      <Stack gap={4}>
        <KindCrumb kind={kind} place={record?.code} />
        <Title order={1} className={classes.recordTitle}>
          {record ? `Edit ${record.title || `${label} ${record.id}`}` : `New ${label}`}
        </Title>
      </Stack>
      <RecordForm kind={kind} record={record} />
      <FormTabs kind={kind} record={record} />
    </Stack>
  );
}

/** The sub-tabs of a create or edit page, and the chosen one's content. */
function FormTabs({ kind, record }: { kind: Kind; record?: RecordDetail }) {
  const outlet = useOutlet();
  const current = useRouteTab();
  const { pathname } = useLocation();
  const tabs = formTabs(kind, record ? 'edit' : 'create', record?.tabs?.length ? record.tabs : kind.tabs);
  if (tabs.length === 0) return null;
  const chosen = tabs.find((t) => t.name === current);
  const hrefOf = (tab: string) => (record ? editPathOf(kind, record.id, tab) : createPathOf(kind, tab)) ?? '';
  return (
    <Stack gap="sm" component="section" aria-label="Related sections">
      <nav aria-label={`${kind.label} sections`} className={classes.tabBar}>
        {tabs.map((tab) => {
          const href = hrefOf(tab.name);
          return (
            <Link key={tab.name} to={href} className={classes.tab} aria-current={pathname === href.split('?')[0] ? 'page' : undefined}>
              {tab.label}
            </Link>
          );
        })}
      </nav>
      {record
        ? outlet
        : outlet && (
            <EmptyBlock title={`${chosen?.label ?? 'This section'} will show here once the ${kind.label.toLowerCase()} is created.`}>
              <Text size="sm" c="dimmed">
                Fill in the form above and create it first.
              </Text>
            </EmptyBlock>
          )}
    </Stack>
  );
}
