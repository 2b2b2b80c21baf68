/**
 * /admin/users (access.admin): the tenant's portal users — add one by email and full
 * name, grant and revoke roles, disable and enable. Each change saves at once (the whole
 * access file, with If-Match) and says what it did, naming the person, in a place that
 * moves nothing; a disabled user's sessions and open pages end at once, so disabling asks
 * first. On a phone each user is a card.
 */
import { Badge, Button, Checkbox, Group, Modal, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { Fragment, useState, type FormEvent, type ReactNode } from 'react';
import { addUser, ADMIN_PERMISSION, newUserProblem, setUserDisabled, setUserRole, type AccessUser } from './access';
import { AdminNav, SaveNotice, useAccess } from './useAccess';
import { ErrorBlock, LoadingBlock, RecordErrorBoundary, recordClasses } from '../records';
import { RequirePermission } from '../../components/RequirePermission';
import classes from './AdminPages.module.css';

export const ErrorBoundary = RecordErrorBoundary;

export default function AdminUsersPage() {
  return (
    <RequirePermission permission={ADMIN_PERMISSION} title="Users" what="the users of the portal">
      <Users />
    </RequirePermission>
  );
}

/** What a user is called: the full name, else the email. */
function nameOf(user: AccessUser): string {
  return user.fullName || user.email;
}

/** An email that may break after its @ and its dots (never inside a word, unless nothing else fits). */
function breakableEmail(email: string): ReactNode {
  return email.split(/(?<=[@.])/).map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

function Users() {
  const { query, save, saving, notice } = useAccess();
  const [email, setEmail] = useState('');
  const [fullName, setFullName] = useState('');
  const [addProblem, setAddProblem] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  // The user whose disabling waits for confirmation (kept while the dialog closes, so its text stays).
  const [disabling, setDisabling] = useState<AccessUser | null>(null);
  const [confirming, setConfirming] = useState(false);

  if (query.error) return <ErrorBlock error={query.error} what="the users" onRetry={() => void query.refetch()} />;
  if (query.isPending) return <LoadingBlock label="Loading the users…" rows={6} />;
  const file = query.data.file;
  const roles = file.roles ?? [];
  const users = (file.users ?? []).filter((u) => !filter || `${u.fullName} ${u.email}`.toLowerCase().includes(filter.toLowerCase()));

  function grant(user: AccessUser, roleId: number, on: boolean) {
    const role = roles.find((r) => r.id === roleId)?.name ?? 'the role';
    const done = on ? `${nameOf(user)} now has the ${role} role.` : `${nameOf(user)} no longer has the ${role} role.`;
    void save(setUserRole(file, user.id, roleId, on), done);
  }

  function enable(user: AccessUser) {
    void save(setUserDisabled(file, user.id, false), `${nameOf(user)} is enabled.`);
  }

  function askToDisable(user: AccessUser) {
    setDisabling(user);
    setConfirming(true);
  }

  async function disable(user: AccessUser) {
    await save(setUserDisabled(file, user.id, true), `${nameOf(user)} is disabled and signed out everywhere.`);
    setConfirming(false);
  }

  async function add(event: FormEvent) {
    event.preventDefault();
    const problem = newUserProblem(file, email, fullName);
    setAddProblem(problem);
    if (problem) return;
    const outcome = await save(addUser(file, email, fullName), `${fullName.trim() || email.trim()} is added.`);
    if (outcome.ok) {
      setEmail('');
      setFullName('');
    } else setAddProblem(outcome.problems.map((p) => p.message).join(' ') || outcome.message);
  }

  return (
    <Stack gap="md">
      <Title order={1}>Users</Title>
      <AdminNav current="users" />
      <form onSubmit={(e) => void add(e)} aria-label="Add a user">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput label="Email" type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} autoComplete="off" required className={classes.userField} />
          <TextInput label="Full name" value={fullName} onChange={(e) => setFullName(e.currentTarget.value)} autoComplete="off" required className={classes.userField} />
          <Button type="submit" loading={saving}>
            Add user
          </Button>
        </Group>
        {addProblem && (
          <Text c="red" size="sm" role="alert" mt={4}>
            {addProblem}
          </Text>
        )}
      </form>
      <SaveNotice notice={notice} idle="Each change is saved at once." />
      <Group>
        <TextInput label="Find a user" value={filter} onChange={(e) => setFilter(e.currentTarget.value)} type="search" className={classes.userField} />
      </Group>
      <div className={recordClasses.tableWrap}>
        {/* Explicit roles: on a phone the rows are cards (display: block), which would drop the table's semantics. */}
        <Table verticalSpacing={6} horizontalSpacing="sm" role="table" className={classes.usersTable}>
          <caption>
            <VisuallyHidden>Portal users, their roles and status</VisuallyHidden>
          </caption>
          <Table.Thead role="rowgroup">
            <Table.Tr role="row">
              <Table.Th scope="col" role="columnheader">
                User
              </Table.Th>
              <Table.Th scope="col" role="columnheader">
                Roles
              </Table.Th>
              <Table.Th scope="col" role="columnheader">
                Status
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody role="rowgroup">
            {users.map((u) => (
              <Table.Tr key={u.id} role="row" data-testid="user-row" data-email={u.email}>
                <Table.Td role="cell">
                  <Text size="sm" fw={500}>
                    {u.fullName}
                  </Text>
                  <Text size="xs" c="dimmed" className={classes.email}>
                    {breakableEmail(u.email)}
                  </Text>
                </Table.Td>
                <Table.Td role="cell">
                  <Group gap="xs" role="group" aria-label={`Roles of ${u.fullName}`}>
                    {roles.map((r) => (
                      <Checkbox
                        key={r.id}
                        size="xs"
                        label={r.name}
                        checked={(u.roles ?? []).includes(r.id)}
                        disabled={saving}
                        onChange={(e) => grant(u, r.id, e.currentTarget.checked)}
                      />
                    ))}
                  </Group>
                  {(u.roles ?? []).length === 0 && (
                    <Text size="xs" c="dimmed">
                      No role: cannot sign in.
                    </Text>
                  )}
                </Table.Td>
                <Table.Td role="cell" className={classes.nowrap}>
                  <Group gap={6} align="center">
                    <Badge color={u.disabled ? 'gray' : 'teal'} variant="light">
                      {u.disabled ? 'Disabled' : 'Enabled'}
                    </Badge>
                    <Button
                      size="compact-xs"
                      variant="default"
                      disabled={saving}
                      onClick={() => (u.disabled ? enable(u) : askToDisable(u))}
                      aria-label={`${u.disabled ? 'Enable' : 'Disable'} ${nameOf(u)}`}
                    >
                      {u.disabled ? 'Enable' : 'Disable'}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      {disabling && (
        <Modal opened={confirming} onClose={() => setConfirming(false)} title={`Disable ${nameOf(disabling)}?`} centered>
          <Stack gap="md">
            <Text size="sm">{nameOf(disabling)} will be signed out everywhere at once, and cannot sign in until enabled again.</Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
                Cancel
              </Button>
              <Button color="red" loading={saving} onClick={() => void disable(disabling)}>
                Disable {nameOf(disabling)}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </Stack>
  );
}
