/**
 * /admin/roles (access.admin): the tenant's roles — name and menu, permissions grouped by
 * record kind (view, create, edit) plus the other permissions, and a rule per view or
 * edit permission (a filter such as "job.projectmanager eq $me"; each box's example is
 * true of its kind, see ruleExample), the server's problem with it shown beside it. On a
 * phone a kind's permissions and rules stack under its name, the whole width. A preview counts the records of each kind a chosen user would
 * see under the role as edited, before it is saved.
 */
import { Button, Checkbox, Group, NativeSelect, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  addRole,
  ADMIN_PERMISSION,
  kindPermissions,
  previewRole,
  problemsAt,
  removeRole,
  replaceRole,
  ruleExample,
  setPermission,
  setRule,
  takesRule,
  type AccessRole,
  type AccessSetup,
  type KindCount,
} from './access';
import { AdminNav, SaveNotice, useAccess } from './useAccess';
import { formatCount, kindsQuery, ErrorBlock, LoadingBlock, RecordErrorBoundary, recordClasses } from '../records';
import { failureMessage, fieldProblems, type FieldProblem } from '../reports';
import { RequirePermission } from '../../components/RequirePermission';
import classes from './AdminPages.module.css';

export const ErrorBoundary = RecordErrorBoundary;

export default function AdminRolesPage() {
  return (
    <RequirePermission permission={ADMIN_PERMISSION} title="Roles" what="the roles of the portal">
      <Roles />
    </RequirePermission>
  );
}

function Roles() {
  const access = useAccess();
  const { query, save, saving, notice } = access;
  const [roleId, setRoleId] = useState<number | null>(null);
  const [newName, setNewName] = useState('');

  if (query.error) return <ErrorBlock error={query.error} what="the roles" onRetry={() => void query.refetch()} />;
  if (query.isPending) return <LoadingBlock label="Loading the roles…" rows={6} />;
  const file = query.data.file;
  const roles = file.roles ?? [];
  const selected = roles.find((r) => r.id === roleId) ?? roles[0];

  async function create() {
    if (!newName.trim()) return;
    const { file: next, role } = addRole(file, newName);
    const outcome = await save(next);
    if (outcome.ok) {
      setRoleId(role.id);
      setNewName('');
    }
  }

  return (
    <Stack gap="md">
      <Title order={1}>Roles</Title>
      <AdminNav current="roles" />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <NativeSelect
          label="Role"
          value={String(selected?.id ?? '')}
          data={roles.map((r) => ({ value: String(r.id), label: r.name }))}
          onChange={(e) => setRoleId(Number(e.currentTarget.value))}
        />
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <Group gap="sm" align="flex-end">
            <TextInput label="New role" placeholder="Name" value={newName} onChange={(e) => setNewName(e.currentTarget.value)} />
            <Button type="submit" variant="default" disabled={!newName.trim()} loading={saving}>
              Add role
            </Button>
          </Group>
        </form>
      </Group>
      <SaveNotice notice={notice} />
      {selected && (
        // A new role or a new version of the setup (a save, someone else's) starts the draft afresh.
        <RoleEditor key={`${selected.id}:${query.data.version}`} role={selected} setup={query.data} save={save} saving={saving} onDeleted={() => setRoleId(null)} />
      )}
    </Stack>
  );
}

interface RoleEditorProps {
  role: AccessRole;
  setup: AccessSetup;
  save: ReturnType<typeof useAccess>['save'];
  saving: boolean;
  onDeleted: () => void;
}

function RoleEditor({ role, setup, save, saving, onDeleted }: RoleEditorProps) {
  const [draft, setDraft] = useState<AccessRole>(() => structuredClone(role));
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const { file, kinds, permissions } = setup;
  // The registry's kinds (fields, owners) make each rule box's example true of its kind.
  const registry = useQuery(kindsQuery());
  const index = (file.roles ?? []).findIndex((r) => r.id === draft.id);
  const at = (field: string) => problemsAt(problems, `roles[${index}]${field}`);

  async function saveDraft() {
    const outcome = await save(replaceRole(file, draft));
    setProblems(outcome.ok ? [] : outcome.problems);
  }

  async function remove() {
    if (!window.confirm(`Delete the role ${draft.name}? Every user loses it.`)) return;
    const outcome = await save(removeRole(file, draft.id));
    if (outcome.ok) onDeleted();
    else setProblems(outcome.problems);
  }

  const has = (p: string) => !!draft.permissions?.includes(p);
  const generalProblems = problems.filter((p) => !p.field.includes('.rules.')).map((p) => p.message);

  return (
    <Stack gap="md" component="section" aria-label={`Role ${draft.name}`}>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput label="Name" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })} required />
        <NativeSelect
          label="Menu"
          value={draft.layout}
          data={[{ value: '', label: 'No menu' }, ...(file.layouts ?? []).map((l) => ({ value: l.id, label: l.name }))]}
          onChange={(e) => setDraft({ ...draft, layout: e.currentTarget.value })}
        />
      </Group>
      {generalProblems.length > 0 && (
        <Text c="red" size="sm" role="alert">
          {generalProblems.join(' ')}
        </Text>
      )}
      <Title order={2} size="h4">
        Records
      </Title>
      <div className={recordClasses.tableWrap}>
        {/* Explicit roles: on a phone the rows stack (display: block), which would drop the table's semantics. */}
        <Table verticalSpacing={6} horizontalSpacing="sm" className={classes.kindTable} role="table">
          <caption>
            <VisuallyHidden>Permissions on each record kind, with their rules</VisuallyHidden>
          </caption>
          <Table.Thead role="rowgroup">
            <Table.Tr role="row">
              <Table.Th scope="col" role="columnheader">
                Kind
              </Table.Th>
              <Table.Th scope="col" role="columnheader">
                Permissions and rules
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody role="rowgroup">
            {kinds.map((k) => (
              <Table.Tr key={k.route} role="row">
                <Table.Th scope="row" role="rowheader">
                  {k.plural}
                </Table.Th>
                <Table.Td role="cell">
                  <Stack gap={6}>
                    <Group gap="md" role="group" aria-label={`Permissions on ${k.plural}`}>
                      {kindPermissions(k).map((p) => (
                        <Checkbox
                          key={p.name}
                          size="xs"
                          label={p.action}
                          aria-label={`${p.action} ${k.plural}`}
                          checked={has(p.name)}
                          onChange={(e) => setDraft(setPermission(draft, p.name, e.currentTarget.checked))}
                        />
                      ))}
                    </Group>
                    {kindPermissions(k)
                      .filter((p) => takesRule(p.name) && has(p.name))
                      .map((p) => {
                        const errors = at(`.rules.${p.name}`);
                        return (
                          <TextInput
                            key={p.name}
                            size="xs"
                            label={`Rule for ${p.action} (empty: every record)`}
                            aria-label={`Rule for ${p.action} ${k.plural}`}
                            placeholder={ruleExample(registry.data, k.route, p.action)}
                            value={draft.rules?.[p.name] ?? ''}
                            onChange={(e) => setDraft(setRule(draft, p.name, e.currentTarget.value))}
                            error={errors.length ? errors.join(' ') : undefined}
                            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                          />
                        );
                      })}
                  </Stack>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      <Title order={2} size="h4">
        Other permissions
      </Title>
      <Stack gap={6} role="group" aria-label="Other permissions">
        {permissions.map((p) => (
          <Checkbox key={p.name} label={`${p.label} (${p.name})`} checked={has(p.name)} onChange={(e) => setDraft(setPermission(draft, p.name, e.currentTarget.checked))} />
        ))}
      </Stack>
      <Group gap="sm">
        <Button onClick={() => void saveDraft()} loading={saving}>
          Save role
        </Button>
        <Button variant="default" onClick={() => setDraft(structuredClone(role))} disabled={saving}>
          Undo changes
        </Button>
        <Button variant="subtle" color="red" onClick={() => void remove()} disabled={saving}>
          Delete role
        </Button>
      </Group>
      <Preview role={draft} users={(file.users ?? []).map((u) => ({ id: u.id, label: `${u.fullName} (${u.email})` }))} />
    </Stack>
  );
}

/** How many records of each kind a chosen user would see under the role as edited. */
function Preview({ role, users }: { role: AccessRole; users: { id: number; label: string }[] }) {
  const [userId, setUserId] = useState(users[0]?.id ?? 0);
  const [counts, setCounts] = useState<KindCount[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run() {
    setBusy(true);
    setError(null);
    try {
      setCounts(await previewRole(role, userId));
    } catch (e) {
      const fields = fieldProblems(e);
      setError(fields.length ? fields.map((f) => f.message).join(' ') : failureMessage(e));
      setCounts(null);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="sm" component="section" aria-labelledby="preview-title">
      <Title order={2} size="h4" id="preview-title">
        Preview
      </Title>
      <Text size="sm" c="dimmed">
        How many records of each kind a user would see in this role, as edited here (not yet saved). Large counts under a rule are estimated.
      </Text>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <NativeSelect label="User" value={String(userId)} data={users.map((u) => ({ value: String(u.id), label: u.label }))} onChange={(e) => setUserId(Number(e.currentTarget.value))} />
        <Button variant="default" onClick={() => void run()} loading={busy} disabled={!userId}>
          Preview
        </Button>
      </Group>
      <div aria-live="polite">
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        {counts && counts.length === 0 && <Text size="sm">This role sees no records.</Text>}
        {counts && counts.length > 0 && (
          <div className={recordClasses.tableWrap}>
          <Table verticalSpacing={4} horizontalSpacing="sm" data-testid="preview">
            <caption>
              <VisuallyHidden>Records the user would see</VisuallyHidden>
            </caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Kind</Table.Th>
                <Table.Th scope="col">Records</Table.Th>
                <Table.Th scope="col">Rule</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {counts.map((c) => (
                <Table.Tr key={c.kind}>
                  <Table.Td>{c.plural}</Table.Td>
                  <Table.Td>{c.error ? <Text c="red" size="sm">{c.error}</Text> : `${c.estimated ? '≈ ' : ''}${formatCount(c.count)}`}</Table.Td>
                  <Table.Td>
                    <Text size="xs" ff="monospace">
                      {c.rule || 'every record'}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          </div>
        )}
      </div>
    </Stack>
  );
}
