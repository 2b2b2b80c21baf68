/**
 * The changes kept on this device (outbox.ts), under the offline notice while any wait:
 * how many and where they stand — waiting for the connection, being sent, or refused by
 * the server with its reason, then with "Open" (the record, to redo the change on what is
 * saved now) and "Discard". Mounting it starts the outbox: kept changes go out at start,
 * when the browser comes online, and every half minute while any wait.
 */
import { Anchor, Button, Group, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { Link } from 'react-router';
import { useOnline } from '../../../lib/offline/online';
import { formatDateTime } from '../format';
import { kindByName } from '../kinds';
import { listPath, viewPath } from '../links';
import { kindsQuery } from '../queries';
import { discardChange, startOutbox, useOutbox, type QueuedChange } from './outbox';
import classes from './KeptChanges.module.css';

function countText(n: number): string {
  return n === 1 ? '1 change' : `${n} changes`;
}

export function KeptChanges() {
  const queryClient = useQueryClient();
  useEffect(() => startOutbox(queryClient), [queryClient]);
  const changes = useOutbox((s) => s.changes);
  const online = useOnline();
  const headingId = useId();
  const sending = changes.filter((c) => c.state === 'sending').length;
  const waiting = changes.filter((c) => c.state === 'waiting').length;
  const failed = changes.filter((c) => c.state === 'failed').length;
  const summary = [
    sending > 0 && `sending ${countText(sending)}…`,
    waiting > 0 && `${countText(waiting)} waiting ${online ? 'to be sent' : 'for the connection'}`,
    failed > 0 && `${countText(failed)} not saved`,
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <section className={changes.length > 0 ? classes.area : undefined} aria-labelledby={changes.length > 0 ? headingId : undefined} data-testid="kept-changes">
      <div role="status" aria-live="polite">
        {changes.length > 0 && (
          <Text size="sm" id={headingId}>
            <strong>Kept on this device:</strong> {summary}.
          </Text>
        )}
      </div>
      {changes.length > 0 && (
        <ul className={classes.list}>
          {changes.map((change) => (
            <KeptChange key={change.id} change={change} />
          ))}
        </ul>
      )}
    </section>
  );
}

function KeptChange({ change }: { change: QueuedChange }) {
  const kind = kindByName(useQuery(kindsQuery()).data, change.type);
  const to = kind ? (change.recordId === null ? listPath(kind) : viewPath(kind, change.recordId)) : undefined;
  const made = formatDateTime(new Date(change.createdAt).toISOString());
  const state = change.state === 'sending' ? 'Sending…' : change.state === 'waiting' ? 'Waiting to be sent.' : 'Not saved.';
  return (
    <li className={classes.change} data-state={change.state}>
      <Text size="sm">
        {to ? (
          <Anchor component={Link} to={to} size="sm">
            {change.title}
          </Anchor>
        ) : (
          change.title
        )}
        , changed {made}. {state} {change.state === 'failed' && change.error}
      </Text>
      {change.state === 'failed' && (
        <Group gap="xs">
          <Button size="compact-xs" variant="default" onClick={() => void discardChange(change.id)} aria-label={`Discard the kept change to ${change.title}`}>
            Discard
          </Button>
        </Group>
      )}
    </li>
  );
}
