/**
 * /admin/menus (access.admin): a menu layout's tree (SPEC §3 menu items) — add, remove,
 * rename, move up and down, and set each item's link (a portal path or an https://
 * address); a group holds items, a separator divides them. A new menu is added empty (a
 * role gets it on the Roles page); a menu no role uses can be deleted. Saved as the whole
 * access file, with If-Match.
 */
import { Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import {
  addItem,
  addLayout,
  ADMIN_PERMISSION,
  hrefProblem,
  moveItem,
  problemsAt,
  removeItem,
  removeLayout,
  replaceLayoutItems,
  updateItem,
  type AccessFile,
  type ItemPath,
  type Layout,
  type MenuItem,
} from './access';
import { AdminNav, SaveNotice, useAccess } from './useAccess';
import { ErrorBlock, LoadingBlock, RecordErrorBoundary } from '../records';
import type { FieldProblem } from '../reports';
import { RequirePermission } from '../../components/RequirePermission';
import classes from './AdminPages.module.css';

export const ErrorBoundary = RecordErrorBoundary;

export default function AdminMenusPage() {
  return (
    <RequirePermission permission={ADMIN_PERMISSION} title="Menus" what="the menus of the portal">
      <Menus />
    </RequirePermission>
  );
}

function Menus() {
  const { query, save, saving, notice } = useAccess();
  const [layoutId, setLayoutId] = useState<string | null>(null);
  const [newName, setNewName] = useState('');

  if (query.error) return <ErrorBlock error={query.error} what="the menus" onRetry={() => void query.refetch()} />;
  if (query.isPending) return <LoadingBlock label="Loading the menus…" rows={6} />;
  const file = query.data.file;
  const layouts = file.layouts ?? [];
  const layout = layouts.find((l) => l.id === layoutId) ?? layouts[0];
  const usedBy = (file.roles ?? []).filter((r) => r.layout === layout?.id).map((r) => r.name);

  return (
    <Stack gap="md">
      <Title order={1}>Menus</Title>
      <AdminNav current="menus" />
      <form
        className={classes.newMenu}
        onSubmit={(e) => {
          e.preventDefault();
          const name = newName.trim();
          if (!name) return;
          const added = addLayout(file, name);
          void save(added.file, `The menu ${name} is added: give it to a role on the Roles page.`).then((outcome) => {
            if (outcome.ok) {
              setLayoutId(added.id);
              setNewName('');
            }
          });
        }}
      >
        <TextInput label="New menu" placeholder="Its name, e.g. Field Lead" value={newName} onChange={(e) => setNewName(e.currentTarget.value)} />
        <Button type="submit" variant="default" disabled={!newName.trim()} loading={saving}>
          Add menu
        </Button>
      </form>
      <NativeSelect
        label="Menu"
        maw={320}
        value={layout?.id ?? ''}
        data={layouts.map((l) => ({ value: l.id, label: l.name }))}
        onChange={(e) => setLayoutId(e.currentTarget.value)}
      />
      {layout && (
        <Group gap="sm">
          <Text size="sm" c="dimmed">
            Used by {usedBy.length ? `${usedBy.join(', ')}: give those roles another menu on the Roles page to delete it` : 'no role'}.
          </Text>
          {!usedBy.length && (
            <Button
              size="compact-sm"
              variant="default"
              color="red"
              loading={saving}
              onClick={() =>
                void save(removeLayout(file, layout.id), `The menu ${layout.name} is deleted.`).then((outcome) => {
                  if (outcome.ok) setLayoutId(null);
                })
              }
            >
              Delete menu {layout.name}
            </Button>
          )}
        </Group>
      )}
      <SaveNotice notice={notice} />
      {layout && <MenuEditor key={`${layout.id}:${query.data.version}`} layout={layout} index={layouts.indexOf(layout)} file={file} save={save} saving={saving} />}
    </Stack>
  );
}

interface MenuEditorProps {
  layout: Layout;
  index: number;
  file: AccessFile;
  save: ReturnType<typeof useAccess>['save'];
  saving: boolean;
}

function MenuEditor({ layout, index, file, save, saving }: MenuEditorProps) {
  const [items, setItems] = useState<MenuItem[]>(() => structuredClone(layout.items ?? []));
  const [problems, setProblems] = useState<FieldProblem[]>([]);

  async function saveMenu() {
    const outcome = await save(replaceLayoutItems(file, layout.id, items));
    setProblems(outcome.ok ? [] : outcome.problems);
  }

  return (
    <Stack gap="sm" component="section" aria-label={`Menu ${layout.name}`}>
      <ItemList items={items} path={[]} onChange={setItems} problems={problems} at={`layouts[${index}]`} />
      <Group gap="sm">
        <Button variant="default" onClick={() => setItems(addItem(items, null, { text: 'New item', href: '/' }))}>
          Add item
        </Button>
        <Button variant="default" onClick={() => setItems(addItem(items, null, { text: 'New group', items: [] }))}>
          Add group
        </Button>
        <Button onClick={() => void saveMenu()} loading={saving}>
          Save menu
        </Button>
        <Button variant="subtle" onClick={() => setItems(structuredClone(layout.items ?? []))} disabled={saving}>
          Undo changes
        </Button>
      </Group>
    </Stack>
  );
}

interface ItemListProps {
  items: MenuItem[];
  path: ItemPath;
  onChange: (items: MenuItem[]) => void;
  problems: FieldProblem[];
  at: string;
}

/** The items under one parent, as a list; each group's items nested inside it. */
function ItemList({ items, path, onChange, problems, at }: ItemListProps) {
  const root = (fn: (all: MenuItem[]) => MenuItem[]) => onChange(fn(items));
  return (
    <Stack gap="xs" component="ol" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {items.map((item, i) => (
        <MenuRow key={i} item={item} path={[...path, i]} last={i === items.length - 1} root={root} problems={problems} at={`${at}.items[${i}]`} />
      ))}
    </Stack>
  );
}

interface MenuRowProps {
  item: MenuItem;
  path: ItemPath;
  last: boolean;
  root: (fn: (all: MenuItem[]) => MenuItem[]) => void;
  problems: FieldProblem[];
  at: string;
}

function MenuRow({ item, path, last, root, problems, at }: MenuRowProps) {
  // Paths below are relative to the list ItemList was given (the layout's top level).
  const local = path.slice(-1);
  const own = problemsAt(problems, at).filter((m) => !problems.some((p) => p.message === m && p.field.startsWith(`${at}.items`)));
  const hrefError = item.href ? hrefProblem(item.href) : null;
  const name = item.separator ? 'Separator' : item.text || 'Untitled item';
  const isGroup = !item.separator && Array.isArray(item.items) && (item.items.length > 0 || !item.href);
  return (
    <li className={classes.menuItem} data-testid="menu-item">
      <Group gap="xs" align="flex-end" wrap="wrap">
        {item.separator ? (
          <Text size="sm" c="dimmed" py={4}>
            — separator —
          </Text>
        ) : (
          <>
            <TextInput size="xs" label="Text" value={item.text ?? ''} onChange={(e) => root((all) => updateAt(all, path, { text: e.currentTarget.value }))} />
            {!isGroup && (
              <TextInput
                size="xs"
                label="Link"
                value={item.href ?? ''}
                error={hrefError ?? undefined}
                onChange={(e) => root((all) => updateAt(all, path, { href: e.currentTarget.value }))}
              />
            )}
          </>
        )}
        <Group gap={4}>
          <Button size="compact-xs" variant="default" aria-label={`Move ${name} up`} disabled={local[0] === 0} onClick={() => root((all) => moveItem(all, path, -1))}>
            ↑
          </Button>
          <Button size="compact-xs" variant="default" aria-label={`Move ${name} down`} disabled={last} onClick={() => root((all) => moveItem(all, path, 1))}>
            ↓
          </Button>
          {isGroup && (
            <>
              <Button size="compact-xs" variant="default" onClick={() => root((all) => addItem(all, path, { text: 'New item', href: '/' }))}>
                Add item to {name}
              </Button>
              <Button size="compact-xs" variant="default" onClick={() => root((all) => addItem(all, path, { separator: true }))}>
                Add separator
              </Button>
            </>
          )}
          <Button size="compact-xs" variant="subtle" color="red" aria-label={`Remove ${name}`} onClick={() => root((all) => removeItem(all, path))}>
            Remove
          </Button>
        </Group>
      </Group>
      {own.length > 0 && (
        <Text c="red" size="xs" role="alert">
          {own.join(' ')}
        </Text>
      )}
      {isGroup && (item.items ?? []).length > 0 && (
        <Stack gap="xs" component="ol" mt="xs" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {(item.items ?? []).map((child, j) => (
            <MenuRow
              key={j}
              item={child}
              path={[...path, j]}
              last={j === (item.items ?? []).length - 1}
              root={root}
              problems={problems}
              at={`${at}.items[${j}]`}
            />
          ))}
        </Stack>
      )}
    </li>
  );
}

function updateAt(all: MenuItem[], path: ItemPath, patch: Partial<MenuItem>): MenuItem[] {
  return updateItem(all, path, patch);
}
