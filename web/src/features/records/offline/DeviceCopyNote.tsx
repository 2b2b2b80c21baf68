/**
 * Marks a page that shows a copy kept on this device (lib/offline/copies) rather than the
 * server's answer now: offline, or when the server could not be reached. It says so with
 * the copy's age ("from 12 minutes ago"), so nobody takes it for the latest.
 */
import { Alert, Text } from '@mantine/core';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { isDeviceCopy } from '../../../lib/offline/copies';
import { ageText, useOnline } from '../../../lib/offline/online';
import { formatDateTime } from '../format';

export function DeviceCopyNote({ queryKey, dataUpdatedAt, what }: { queryKey: QueryKey; dataUpdatedAt: number; what: string }) {
  const online = useOnline();
  const query = useQueryClient().getQueryCache().find({ queryKey, exact: true });
  if ((online && !isDeviceCopy(query)) || !dataUpdatedAt) return null;
  const when = formatDateTime(new Date(dataUpdatedAt).toISOString());
  return (
    <Alert color="yellow" variant="light" role="note" data-testid="device-copy" p="xs">
      <Text size="sm">
        <strong>{online ? 'The server cannot be reached' : 'You are offline'}:</strong> {what} is the copy kept on this device{' '}
        <time dateTime={new Date(dataUpdatedAt).toISOString()} title={when}>
          {ageText(dataUpdatedAt)}
        </time>
        . It may have changed since.
      </Text>
    </Alert>
  );
}

/** Offline, a page that was not opened on this device lately: nothing to show until the connection is back. */
export function NoDeviceCopy({ what }: { what: string }) {
  return (
    <Alert color="yellow" variant="light" title="You are offline" role="status" data-testid="no-device-copy">
      <Text size="sm">
        {what[0]?.toUpperCase()}
        {what.slice(1)} was not opened on this device lately, so there is no copy of it to show. It loads once the connection is back.
      </Text>
    </Alert>
  );
}
