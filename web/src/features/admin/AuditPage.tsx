/**
 * /audit: the tenant's audit log for roles with audit.view — when, what, who (in which
 * role, from where) and about which record, in words: names rather than ids, an edit's
 * fields as "before → after". Newest first, narrowed by event, user (picked by name) and
 * record kind, 100 more at a time with "Load more".
 */
import { Anchor, Button, Group, NativeSelect, Select, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime, kindByName, viewPath, kindsQuery, EmptyBlock, ErrorBlock, LoadingBlock, RecordErrorBoundary, type Kind, recordClasses } from '../records';
import { AUDIT_EVENTS, auditChanges, auditPageQuery, auditSummary, auditUsersQuery, eventLabel, nextCursor, type AuditEvent, type AuditFilter } from './audit';
import { RequirePermission } from '../../components/RequirePermission';
import classes from './AdminPages.module.css';

export const ErrorBoundary = RecordErrorBoundary;

export default function AuditPage() {
  return (
    <RequirePermission permission="audit.view" title="Audit log" what="the audit log">
      <AuditLog />
    </RequirePermission>
  );
}

function AuditLog() {
  const [filter, setFilter] = useState<AuditFilter>({ event: '', userId: '', kind: '' });
  // Where each page shown starts: the newest events, then before the last event of each.
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  const kinds = useQuery(kindsQuery());
  const users = useQuery(auditUsersQuery());
  const pages = useQueries({ queries: cursors.map((before) => auditPageQuery(filter, before)) });
  const first = pages[0]!;
  const last = pages[pages.length - 1]!;
  const more = nextCursor(last.data);
  const set = (patch: Partial<AuditFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    setCursors([undefined]);
  };
  const events = pages.flatMap((p) => p.data ?? []);
  const userChoices = (users.data ?? []).map((u) => ({ value: String(u.id), label: u.fullName || u.email }));

  let body;
  if (first.error) body = <ErrorBlock error={first.error} what="the audit log" onRetry={() => void first.refetch()} />;
  else if (first.isPending) body = <LoadingBlock label="Loading the audit log…" rows={8} />;
  else if (events.length === 0) body = <EmptyBlock title="No events match these filters" />;
  else
    body = (
      <div className={recordClasses.tableWrap}>
        <Table verticalSpacing={6} horizontalSpacing="sm" aria-busy={pages.some((p) => p.isFetching) || undefined}>
          <caption>
            <VisuallyHidden>Audit log, newest first</VisuallyHidden>
          </caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">When</Table.Th>
              <Table.Th scope="col">Event</Table.Th>
              <Table.Th scope="col">User</Table.Th>
              <Table.Th scope="col">Role</Table.Th>
              <Table.Th scope="col">Record</Table.Th>
              <Table.Th scope="col">What happened</Table.Th>
              <Table.Th scope="col">IP address</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {events.map((e) => (
              <Table.Tr key={e.id} data-testid="audit-row">
                <Table.Td className={classes.nowrap}>{formatDateTime(e.at)}</Table.Td>
                <Table.Td>{eventLabel(e.event)}</Table.Td>
                <Table.Td>
                  {e.userId ? (
                    <Anchor component="button" type="button" size="sm" onClick={() => set({ userId: String(e.userId) })} title={`Only the events of ${e.user || 'this user'}`}>
                      {e.user || 'A removed user'}
                    </Anchor>
                  ) : (
                    <Text span size="sm" c="dimmed">
                      Unknown
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{e.role}</Table.Td>
                <Table.Td>
                  <RecordCell event={e} kind={kindByName(kinds.data, e.kind)} />
                </Table.Td>
                <Table.Td className={classes.long}>
                  <EventDetail event={e} kind={kindByName(kinds.data, e.kind)} kinds={kinds.data} />
                </Table.Td>
                <Table.Td>{e.ip}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
    );

  return (
    <Stack gap="md">
      <Title order={1}>Audit log</Title>
      <Group gap="sm" align="flex-start" role="search" aria-label="Filter the audit log">
        <NativeSelect label="Event" value={filter.event} data={[{ value: '', label: 'Every event' }, ...AUDIT_EVENTS]} onChange={(e) => set({ event: e.currentTarget.value })} />
        <Select
          label="User"
          placeholder={users.isError ? 'Users could not be loaded' : 'Every user'}
          data={userChoices}
          value={filter.userId || null}
          onChange={(value) => set({ userId: value ?? '' })}
          searchable
          clearable
          nothingFoundMessage="No user by that name"
          disabled={users.isError}
          w={240}
        />
        <NativeSelect
          label="Record kind"
          value={filter.kind}
          data={[{ value: '', label: 'Any kind' }, ...(kinds.data ?? []).map((k) => ({ value: k.name, label: k.plural }))]}
          onChange={(e) => set({ kind: e.currentTarget.value })}
        />
      </Group>
      {body}
      {events.length > 0 && (
        <Group gap="sm">
          {last.error ? (
            <ErrorBlock error={last.error} what="more events" onRetry={() => void last.refetch()} />
          ) : last.isPending || more !== undefined ? (
            <Button variant="default" loading={last.isPending} onClick={() => more !== undefined && setCursors((c) => [...c, more])}>
              Load more
            </Button>
          ) : (
            <Text size="sm" c="dimmed">
              That is every event{filter.event || filter.userId || filter.kind ? ' matching these filters' : ''}.
            </Text>
          )}
        </Group>
      )}
    </Stack>
  );
}

/** The record an event is about: its name, linked to its page, with its kind. */
function RecordCell({ event, kind }: { event: AuditEvent; kind: Kind | undefined }) {
  if (!event.kind || !event.recordId) return null;
  const label = kind?.label ?? event.kind;
  const name = event.record || `${label} ${event.recordId}`;
  const link = kind ? viewPath(kind, event.recordId) : undefined;
  return (
    <Stack gap={0}>
      {link ? <Link to={link}>{name}</Link> : <Text span size="sm">{name}</Text>}
      {event.record && (
        <Text span size="xs" c="dimmed">
          {label}
        </Text>
      )}
    </Stack>
  );
}

/** What happened: a sentence, and for a create or edit each changed field as "before → after". */
function EventDetail({ event, kind, kinds }: { event: AuditEvent; kind: Kind | undefined; kinds: Kind[] | undefined }) {
  const summary = auditSummary(event, kinds);
  const changes = auditChanges(event, kind);
  return (
    <Stack gap={2}>
      {summary && <Text size="sm">{summary}</Text>}
      {changes.length > 0 && (
        <ul className={classes.changes} aria-label="Changed fields">
          {changes.map((c) => (
            <li key={c.field}>
              <Text span size="sm" fw={600}>
                {c.label}:
              </Text>{' '}
              <Text span size="sm">
                {event.event === 'record_create' ? (
                  c.after
                ) : (
                  <>
                    {c.before} <span aria-hidden="true">→</span> <VisuallyHidden>changed to</VisuallyHidden> {c.after}
                  </>
                )}
              </Text>
            </li>
          ))}
        </ul>
      )}
    </Stack>
  );
}
