/**
 * Create and edit pages (`/<route>/create`, `/<route>/edit?id=42`). Writing records comes
 * with the create/edit issue; until then the page says so plainly and links back.
 */
import { Alert, Anchor, Stack, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { useRouteMeta } from '../app/meta';
import { useRouteKind } from './kinds';
import { listPath, viewPath } from './links';
import { recordIdOf } from './recordId';
import { RecordErrorBoundary } from './States';

export const ErrorBoundary = RecordErrorBoundary;

export default function RecordFormPage() {
  const { kind } = useRouteKind();
  const { isEdit } = useRouteMeta();
  const [searchParams] = useSearchParams();
  const id = recordIdOf(searchParams);
  const label = kind?.label.toLowerCase() ?? 'record';
  const back = kind && isEdit && id ? viewPath(kind, id) : kind ? listPath(kind) : undefined;
  return (
    <Stack gap="md" maw={720}>
      <Title order={1}>{isEdit ? `Edit ${label}` : `New ${label}`}</Title>
      <Alert color="indigo" variant="light" title="Not available yet">
        Editing arrives with the create/edit issue. For now, records are created and changed in NetSuite; the portal shows them
        after the next sync.
      </Alert>
      {back && (
        <Anchor component={Link} to={back}>
          {isEdit && id ? `Back to the ${label}` : `Back to ${kind?.plural.toLowerCase()}`}
        </Anchor>
      )}
    </Stack>
  );
}
