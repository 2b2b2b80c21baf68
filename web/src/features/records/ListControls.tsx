/**
 * The controls above a list: saved-list picker, quick search, column chooser, CSV export.
 */
import { Anchor, Button, Checkbox, NativeSelect, Popover, Stack, Text, TextInput } from '@mantine/core';
import { useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../lib/api';
import { DebouncedInput } from '../../components/ui/DebouncedInput';
import { downloadListCsv, saveDownload, type ListParams } from './api';
import { ColumnOrder } from './ColumnOrder';
import type { KindField, ListConfig } from './types';
import listClasses from './list.module.css';
import classes from './records.module.css';

/** Groups the saved lists the way the picker shows them. */
export function pickerData(lists: ListConfig[], roleName: string | undefined) {
  const groups: { group: string; items: { value: string; label: string }[] }[] = [];
  const add = (group: string, items: ListConfig[]) => {
    if (items.length) groups.push({ group, items: items.map((l) => ({ value: l.id, label: l.name })) });
  };
  add('Standard', lists.filter((l) => l.builtIn));
  add(roleName ? `Shared with ${roleName}` : 'Shared with the role', lists.filter((l) => !l.builtIn && l.visibility === 'role'));
  add('Only mine', lists.filter((l) => !l.builtIn && l.visibility === 'private'));
  return groups;
}

export function SavedListPicker({
  lists,
  value,
  onChange,
  roleName,
  disabled,
}: {
  lists: ListConfig[];
  value: string;
  onChange: (id: string) => void;
  roleName?: string;
  disabled?: boolean;
}) {
  const known = lists.some((l) => l.id === value);
  const data = pickerData(lists, roleName);
  return (
    <NativeSelect
      label="Saved list"
      value={known ? value : ''}
      data={known ? data : [{ value: '', label: value ? 'Loading…' : 'Default list' }, ...data]}
      onChange={(e) => e.currentTarget.value && onChange(e.currentTarget.value)}
      disabled={disabled}
      data-testid="saved-list-picker"
    />
  );
}

/**
 * Quick search: the shared debounced input (SPEC §5: 300 ms after the last keyup, at once
 * on Enter), trimmed; an empty box clears the search.
 */
export function SearchBox({ value, onSearch, label }: { value: string; onSearch: (q: string) => void; label: string }) {
  const [text, setText] = useState(value);
  const [applied, setApplied] = useState(value);
  // The URL changed from outside (Back, a link): show what it says.
  if (value !== applied) {
    setApplied(value);
    if (value !== text.trim()) setText(value);
  }
  return (
    <DebouncedInput
      label={label}
      type="search"
      placeholder="Search…"
      value={text}
      onChange={setText}
      onDebounced={(next) => {
        if (next.trim() !== value) onSearch(next.trim());
      }}
      // A search box's clear button fires "input" without a keyup.
      listenTo={['keyup', 'input']}
      autoComplete="off"
      // The box the `/` shortcut focuses on this page.
      data-page-search
    />
  );
}

/**
 * The column chooser: the columns showing, in order, each movable and removable (one
 * stays), then every other field of the kind to add (a find box narrows them), each added
 * at the end. `onChange` gets the columns to show, in order. Fields the server cannot sort
 * say so. `customised` offers the way back to the saved list's own columns (`onReset`).
 */
export function ColumnChooser({
  fields,
  shown,
  onChange,
  customised,
  onReset,
  editorLink,
  disabled,
}: {
  fields: KindField[];
  /** Names of the columns showing, in order. */
  shown: string[];
  onChange: (shown: string[]) => void;
  customised: boolean;
  onReset: () => void;
  editorLink?: string;
  disabled?: boolean;
}) {
  const [find, setFind] = useState('');
  // A field's box goes once its column is added; the focus stays in the chooser (else it
  // would fall to the page, and Escape would no longer close the chooser): on the box that
  // takes its place, else the added column's Remove.
  const addList = useRef<HTMLDivElement>(null);
  const focusAfterAdd = useRef<{ index: number; name: string } | null>(null);
  useLayoutEffect(() => {
    const added = focusAfterAdd.current;
    if (!added || !shown.includes(added.name)) return;
    focusAfterAdd.current = null;
    const boxes = addList.current?.querySelectorAll<HTMLInputElement>('input[type="checkbox"]') ?? [];
    const next = boxes[Math.min(added.index, boxes.length - 1)] ?? document.getElementById(`chooser-column-${added.name}-remove`);
    next?.focus();
  });
  const byName = new Map(fields.map((f) => [f.name, f]));
  const words = find.trim().toLowerCase();
  const others = fields.filter((f) => !shown.includes(f.name));
  const matching = others.filter((f) => !words || f.label.toLowerCase().includes(words));
  const note = (f: KindField | undefined) => (f?.sortable === false ? 'not sortable' : undefined);
  return (
    // It fits in the window (scrolling within itself), so no field is out of reach; and
    // scrolling the page does not hide it while it is open.
    <Popover
      position="bottom-end"
      shadow="md"
      trapFocus
      returnFocus
      withinPortal
      width={340}
      middlewares={{ size: { padding: 8 } }}
      hideDetached={false}
    >
      <Popover.Target>
        <Button variant="default" disabled={disabled || fields.length === 0}>
          Columns{customised ? ` (${shown.length} of ${fields.length})` : ''}
        </Button>
      </Popover.Target>
      <Popover.Dropdown className={listClasses.chooser}>
        <Stack gap="sm">
          <div>
            <Text fw={600} size="sm" mb={4}>
              Columns shown
            </Text>
            <ColumnOrder id="chooser-column" columns={shown} labelOf={(name) => byName.get(name)?.label ?? name} noteOf={(name) => note(byName.get(name))} onChange={onChange} keepOne />
          </div>
          {others.length > 0 && (
            <Stack gap={6} component="fieldset" className={classes.fieldset}>
              <Text component="legend" fw={600} size="sm" mb={4}>
                Add a column
              </Text>
              <TextInput size="xs" label="Find a field" type="search" value={find} onChange={(e) => setFind(e.currentTarget.value)} autoComplete="off" />
              <div className={listClasses.chooserScroll} ref={addList}>
                <Stack gap={6} py={2}>
                  {matching.map((field, index) => (
                    <Checkbox
                      key={field.name}
                      size="xs"
                      label={note(field) ? `${field.label} (${note(field)})` : field.label}
                      checked={false}
                      onChange={() => {
                        focusAfterAdd.current = { index, name: field.name };
                        onChange([...shown, field.name]);
                      }}
                    />
                  ))}
                  {matching.length === 0 && (
                    <Text size="xs" c="dimmed">
                      No other field matches “{find.trim()}”.
                    </Text>
                  )}
                </Stack>
              </div>
            </Stack>
          )}
          {customised && (
            <Button variant="subtle" size="compact-sm" onClick={onReset}>
              Use the list’s columns
            </Button>
          )}
          {editorLink && (
            <Anchor component={Link} to={editorLink} size="sm">
              Save these columns in a list…
            </Anchor>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** Downloads the whole filtered, sorted list as CSV (server-side `format=csv`). */
export function ExportCsvButton({ params, filename, onError }: { params: ListParams; filename: string; onError: (message: string | null) => void }) {
  const [busy, setBusy] = useState(false);
  async function run() {
    setBusy(true);
    onError(null);
    try {
      saveDownload(await downloadListCsv(params), filename);
    } catch (error) {
      onError(error instanceof ApiError || error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button variant="default" loading={busy} onClick={() => void run()}>
      Export CSV
    </Button>
  );
}
