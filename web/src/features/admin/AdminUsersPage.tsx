/**
 * /admin/users (access.admin): the tenant's portal users — add one by email and full
 * name, grant and revoke roles, disable and enable. Each change saves at once (the whole
 * access file, with If-Match); a disabled user's sessions and open pages end at once.
 */
import { Badge, Button, Checkbox, Group, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { addUser, ADMIN_PERMISSION, newUserProblem, setUserDisabled, setUserRole, type AccessFile } from './access';
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

function Users() {
  const { query, save, saving, notice } = useAccess();
  const [email, setEmail] = useState('');
  const [fullName, setFullName] = useState('');
  const [addProblem, setAddProblem] = useState<string | null>(null);
  const [filter, setFilter] = useState('');

  if (query.error) return <ErrorBlock error={query.error} what="the users" onRetry={() => void query.refetch()} />;
  if (query.isPending) return <LoadingBlock label="Loading the users…" rows={6} />;
  const file = query.data.file;
  const roles = file.roles ?? [];
  const users = (file.users ?? []).filter((u) => !filter || `${u.fullName} ${u.email}`.toLowerCase().includes(filter.toLowerCase()));

  async function change(next: AccessFile) {
    await save(next);
  }

  async function add(event: FormEvent) {
    event.preventDefault();
    const problem = newUserProblem(file, email, fullName);
    setAddProblem(problem);
    if (problem) return;
    const outcome = await save(addUser(file, email, fullName));
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
          <TextInput label="Email" type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} autoComplete="off" required />
          <TextInput label="Full name" value={fullName} onChange={(e) => setFullName(e.currentTarget.value)} autoComplete="off" required />
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
      <SaveNotice notice={notice} />
      <TextInput label="Find a user" value={filter} onChange={(e) => setFilter(e.currentTarget.value)} maw={320} type="search" />
      <div className={recordClasses.tableWrap}>
        <Table verticalSpacing={6} horizontalSpacing="sm">
          <caption>
            <VisuallyHidden>Portal users, their roles and status</VisuallyHidden>
          </caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">User</Table.Th>
              <Table.Th scope="col">Roles</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {users.map((u) => (
              <Table.Tr key={u.id} data-testid="user-row" data-email={u.email}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {u.fullName}
                  </Text>
                  <Text size="xs" c="dimmed" className={classes.email}>
                    {u.email}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" role="group" aria-label={`Roles of ${u.fullName}`}>
                    {roles.map((r) => (
                      <Checkbox
                        key={r.id}
                        size="xs"
                        label={r.name}
                        checked={(u.roles ?? []).includes(r.id)}
                        disabled={saving}
                        onChange={(e) => void change(setUserRole(file, u.id, r.id, e.currentTarget.checked))}
                      />
                    ))}
                  </Group>
                  {(u.roles ?? []).length === 0 && (
                    <Text size="xs" c="dimmed">
                      No role: cannot sign in.
                    </Text>
                  )}
                </Table.Td>
                <Table.Td className={classes.nowrap}>
                  <Stack gap={4} align="flex-start">
                    <Badge color={u.disabled ? 'gray' : 'teal'} variant="light">
                      {u.disabled ? 'Disabled' : 'Enabled'}
                    </Badge>
                    <Button
                      size="compact-xs"
                      variant="default"
                      disabled={saving}
                      onClick={() => void change(setUserDisabled(file, u.id, !u.disabled))}
                      aria-label={`${u.disabled ? 'Enable' : 'Disable'} ${u.fullName}`}
                    >
                      {u.disabled ? 'Enable' : 'Disable'}
                    </Button>
                  </Stack>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
    </Stack>
  );
}
