/**
 * The list editor (`/list/edit?type=<record type>&id=<saved list id>`): create a saved
 * list, or edit one: name, columns and their order, filter, sort, shared with the role or
 * private; delete with a confirmation. Saving makes it the kind's default list (SPEC §4)
 * and opens it; the list pages refresh at once (their queries are invalidated).
 */
import { Alert, Button, Group, Modal, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useSessionStore } from '../../lib/session/store';
import { useAppStore } from '../../lib/appState';
import { ColumnOrder } from './ColumnOrder';
import { filterableFields } from './filter';
import { FilterBuilder, type DraftCheck } from './FilterBuilder';
import { kindByName } from './kinds';
import { listEditorPath, listPath } from './links';
import { KindCrumb } from './KindCrumb';
import { formOf, newListForm, serverErrors, sortableFields, templateOf, validateListForm, type FormErrors, type ListForm, type ListTemplate } from './listEditor';
import { kindsQuery, listConfigsQuery, useDeleteListConfig, useSaveListConfig } from './queries';
import { ErrorBlock, LoadingBlock, RecordErrorBoundary } from './States';
import type { Kind, ListConfig } from './types';
import classes from './records.module.css';
import { useSharedElsewhere, VisibilityChoice } from './VisibilityChoice';

export const ErrorBoundary = RecordErrorBoundary;

export default function ListEditorPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const type = searchParams.get('type') ?? '';
  const id = searchParams.get('id') ?? '';
  const kinds = useQuery(kindsQuery());

  if (kinds.error) return <ErrorBlock error={kinds.error} what="the record kinds" onRetry={() => void kinds.refetch()} />;
  if (kinds.isPending) return <LoadingBlock label="Loading…" rows={4} />;
  const kind = kindByName(kinds.data, type);

  if (!kind) {
    return (
      <Stack gap="md" maw={560}>
        <Title order={1}>List editor</Title>
        {type && (
          <Alert color="yellow" variant="light" title="Unknown record type">
            There is no record type “{type}”.
          </Alert>
        )}
        <NativeSelect
          label="Which records is the list for?"
          value=""
          data={[{ value: '', label: 'Choose a record type' }, ...kinds.data.map((k) => ({ value: k.name, label: k.plural }))]}
          onChange={(e) => e.currentTarget.value && setSearchParams({ type: e.currentTarget.value })}
        />
      </Stack>
    );
  }
  return <KindListEditor key={`${kind.name}:${id}`} kind={kind} id={id} from={templateOf(searchParams)} />;
}

function KindListEditor({ kind, id, from }: { kind: Kind; id: string; from: ListTemplate }) {
  const configs = useQuery(listConfigsQuery(kind.name));
  if (configs.isPending) return <LoadingBlock label={`Loading the saved lists of ${kind.plural.toLowerCase()}…`} rows={6} />;
  if (configs.error) return <ErrorBlock error={configs.error} what={`the saved lists of ${kind.plural.toLowerCase()}`} onRetry={() => void configs.refetch()} />;
  const lists = configs.data.lists;
  const list = id ? lists.find((l) => l.id === id) : undefined;
  if (id && !list) {
    return (
      <ErrorBlock error={new Error(`There is no saved list “${id}” for ${kind.plural.toLowerCase()} that you may see.`)} what="the saved list">
        <Button component={Link} to={listEditorPath(kind.name)} size="compact-sm" variant="light">
          Make a new list
        </Button>
      </ErrorBlock>
    );
  }
  const template = lists.find((l) => l.id === configs.data.defaultId) ?? lists.find((l) => l.builtIn);
  return <ListEditorForm kind={kind} list={list} lists={lists} defaultId={configs.data.defaultId} template={template} from={from} />;
}

interface EditorProps {
  kind: Kind;
  /** The list being edited; undefined for a new one. */
  list?: ListConfig;
  lists: ListConfig[];
  defaultId: string;
  template?: ListConfig;
  /** A new list's starting view (from a list page). */
  from: ListTemplate;
}

function ListEditorForm({ kind, list, lists, defaultId, template, from }: EditorProps) {
  const navigate = useNavigate();
  const role = useSessionStore((s) => s.currentRole);
  const defaultLists = useAppStore((s) => s.defaultLists);
  const setDefaultList = useAppStore((s) => s.setDefaultList);
  const save = useSaveListConfig();
  const remove = useDeleteListConfig();
  const sharedElsewhere = useSharedElsewhere();

  const readOnly = !!list && !list.editable;
  // A read-only list can be saved as a new copy.
  const [form, setForm] = useState<ListForm>(() =>
    list ? { ...formOf(kind, list), ...(readOnly ? { name: `${list.name} (copy)`, visibility: 'private' as const } : {}) } : newListForm(kind, template, from),
  );
  const [errors, setErrors] = useState<FormErrors>({});
  const [filterCheck, setFilterCheck] = useState<DraftCheck | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [addColumn, setAddColumn] = useState('');
  const nameRef = useRef<HTMLInputElement>(null);

  const creating = !list || readOnly;
  const fieldLabel = (name: string) => kind.fields.find((f) => f.name === name)?.label ?? name;
  const unused = kind.fields.filter((f) => !form.columns.includes(f.name));
  const sortable = sortableFields(kind);
  const set = (patch: Partial<ListForm>) => setForm((f) => ({ ...f, ...patch }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const others = lists.filter((l) => creating || l.id !== list?.id);
    const result = validateListForm(form, kind, others);
    setFilterCheck(result.filterCheck);
    setErrors(result.errors);
    if (!result.input) {
      if (result.errors.name) nameRef.current?.focus();
      return;
    }
    try {
      const saved = await save.mutateAsync({ type: kind.name, id: creating ? undefined : list?.id, input: result.input });
      if (sharedElsewhere(saved, 'list')) {
        await navigate(listPath(kind));
        return;
      }
      setDefaultList(kind.name, saved.id);
      await navigate(listPath(kind, `?${new URLSearchParams({ list: saved.id })}`));
    } catch (error) {
      setErrors(serverErrors(error));
    }
  }

  async function confirmRemove() {
    if (!list) return;
    try {
      await remove.mutateAsync({ type: kind.name, id: list.id });
      if (defaultLists[kind.name] === list.id) setDefaultList(kind.name, defaultId);
      setConfirmDelete(false);
      await navigate(listPath(kind));
    } catch (error) {
      setConfirmDelete(false);
      setErrors(serverErrors(error));
    }
  }

  const title = creating ? `New list of ${kind.plural.toLowerCase()}` : `Edit “${list?.name}”`;

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label={title} className={classes.editorForm}>
      <Stack gap="md">
        <div>
          <KindCrumb kind={kind} place="List editor" />
          <Title order={1}>{title}</Title>
        </div>

        {readOnly && (
          <Alert color="indigo" variant="light" title="A standard list">
            “{list?.name}” comes with the portal and cannot be changed. Saving makes a copy of it that you can change.
          </Alert>
        )}
        {errors.form && (
          <Alert color="red" variant="light" title="The list was not saved" role="alert">
            {errors.form}
          </Alert>
        )}

        <TextInput
          ref={nameRef}
          label="Name"
          required
          value={form.name}
          onChange={(e) => set({ name: e.currentTarget.value })}
          error={errors.name}
          maxLength={200}
          autoComplete="off"
        />

        <Paper withBorder p="md" radius="md" component="fieldset" className={classes.fieldsetBox}>
          <Text component="legend" fw={600} px={4}>
            Columns
          </Text>
          <Text size="sm" c="dimmed" mb="xs">
            In the order the list shows them.
          </Text>
          <ColumnOrder id="list-column" columns={form.columns} labelOf={fieldLabel} onChange={(columns) => set({ columns })} />
          {errors.columns && (
            <Text c="red" size="sm" role="alert">
              {errors.columns}
            </Text>
          )}
          {unused.length > 0 && (
            <Group gap="xs" align="flex-end" mt="xs">
              <NativeSelect
                label="Add a column"
                value={addColumn}
                data={[{ value: '', label: 'Choose a field' }, ...unused.map((f) => ({ value: f.name, label: f.label }))]}
                onChange={(e) => setAddColumn(e.currentTarget.value)}
              />
              <Button
                variant="light"
                disabled={!addColumn}
                onClick={() => {
                  set({ columns: [...form.columns, addColumn] });
                  setAddColumn('');
                }}
              >
                Add
              </Button>
            </Group>
          )}
        </Paper>

        <Paper withBorder p="md" radius="md" component="fieldset" className={classes.fieldsetBox}>
          <Text component="legend" fw={600} px={4}>
            Filter
          </Text>
          <FilterBuilder id="editor-filter" fields={filterableFields(kind.fields)} draft={form.filter} onChange={(filter) => set({ filter })} check={filterCheck} />
          {errors.filter && (
            <Text c="red" size="sm" mt="xs" role="alert">
              {errors.filter}
            </Text>
          )}
        </Paper>

        <Paper withBorder p="md" radius="md" component="fieldset" className={classes.fieldsetBox}>
          <Text component="legend" fw={600} px={4}>
            Sort
          </Text>
          <Group gap="sm" align="flex-start">
            <NativeSelect
              label="Sort by"
              value={form.sortField}
              data={[
                ...(sortable.some((f) => f.name === form.sortField) ? [] : [{ value: '', label: 'Choose a field' }]),
                ...sortable.map((f) => ({ value: f.name, label: f.label })),
              ]}
              onChange={(e) => set({ sortField: e.currentTarget.value })}
              error={errors.sort}
            />
            <NativeSelect
              label="Direction"
              value={form.sortDir}
              data={[
                { value: 'asc', label: 'Ascending (A→Z, oldest, smallest)' },
                { value: 'desc', label: 'Descending (Z→A, newest, largest)' },
              ]}
              onChange={(e) => set({ sortDir: e.currentTarget.value === 'desc' ? 'desc' : 'asc' })}
            />
          </Group>
        </Paper>

        <VisibilityChoice noun="list" value={form.visibility} roleId={form.roleId} onChange={(visibility, roleId) => set({ visibility, roleId })} error={errors.visibility} />

        <Group gap="sm">
          <Button type="submit" loading={save.isPending}>
            {creating ? 'Save list' : 'Save changes'}
          </Button>
          <Button component={Link} to={listPath(kind, list ? `?${new URLSearchParams({ list: list.id })}` : '')} variant="default">
            Cancel
          </Button>
          {list && list.editable && (
            <Button variant="subtle" color="red" onClick={() => setConfirmDelete(true)} ml="auto">
              Delete list
            </Button>
          )}
        </Group>

        <Modal opened={confirmDelete} onClose={() => setConfirmDelete(false)} title={`Delete “${list?.name ?? ''}”?`} centered>
          <Stack gap="md">
            <Text size="sm">
              {list?.visibility === 'role'
                ? `Everyone working as ${role?.name ?? 'this role'} loses this list.`
                : 'The list goes for good.'}{' '}
              The records themselves stay.
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setConfirmDelete(false)} data-autofocus>
                Keep it
              </Button>
              <Button color="red" loading={remove.isPending} onClick={() => void confirmRemove()}>
                Delete
              </Button>
            </Group>
          </Stack>
        </Modal>
      </Stack>
    </form>
  );
}
