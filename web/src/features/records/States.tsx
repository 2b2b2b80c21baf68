/** Loading, error and empty states shared by the record pages. */
import { Alert, Button, Group, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { ApiError } from '../../lib/api';
import { listPath } from './links';
import type { Kind } from './types';

export function LoadingBlock({ label, rows = 8 }: { label: string; rows?: number }) {
  return (
    <Stack gap={8} aria-busy="true" data-testid="loading">
      <div role="status">
        <VisuallyHidden>{label}</VisuallyHidden>
      </div>
      <Skeleton height={34} radius="sm" />
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={26} radius="sm" />
      ))}
    </Stack>
  );
}

/** A sentence for an API failure, by status. */
export function errorSentence(error: unknown, what: string): string {
  if (error instanceof ApiError) {
    if (error.status === 403) return `Your current role may not see ${what}.`;
    if (error.status === 404) return `${what[0]?.toUpperCase()}${what.slice(1)} could not be found. ${error.message}`.trim();
    if (error.status === 0) return `Could not reach the server (${error.message}). Check the connection and try again.`;
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

export function ErrorBlock({ error, what, onRetry, children }: { error: unknown; what: string; onRetry?: () => void; children?: ReactNode }) {
  const status = error instanceof ApiError ? error.status : 0;
  const title = status === 403 ? 'Not available to your role' : status === 404 ? 'Not found' : `Could not load ${what}`;
  return (
    <Alert color={status === 403 ? 'yellow' : 'red'} variant="light" title={title} role="alert" data-testid="load-error">
      <Stack gap="xs">
        <Text size="sm">{errorSentence(error, what)}</Text>
        <Group gap="xs">
          {onRetry && status !== 403 && status !== 404 && (
            <Button size="compact-sm" variant="light" onClick={onRetry}>
              Try again
            </Button>
          )}
          {children}
        </Group>
      </Stack>
    </Alert>
  );
}

/** A record page whose address names no record (no valid `?id=`), with the way to the kind's list. */
export function NoRecordId({ kind }: { kind: Kind }) {
  return (
    <ErrorBlock error={new ApiError('404', 'The address names no record: it needs ?id=<record id>.', 404)} what={`this ${kind.label.toLowerCase()}`}>
      <Button component={Link} to={listPath(kind)} size="compact-sm" variant="light">
        Go to {kind.plural.toLowerCase()}
      </Button>
    </ErrorBlock>
  );
}

export function EmptyBlock({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack align="center" gap="xs" py="xl" data-testid="empty">
      <Text fw={600}>{title}</Text>
      {children}
    </Stack>
  );
}

/**
 * Route error boundary of the record pages: a failure inside one page (a render bug, a
 * chunk that failed to load) shows here, under the navbar, instead of replacing the app.
 */
export function RecordErrorBoundary() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : String(error);
  return (
    <Alert color="red" variant="light" title="This page failed" role="alert">
      <Stack gap="xs">
        <Text size="sm">{detail}</Text>
        <Group>
          <Button size="compact-sm" variant="light" onClick={() => window.location.reload()}>
            Reload the page
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
