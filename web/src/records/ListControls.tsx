/**
 * The controls above a list: saved-list picker, quick search, column chooser, CSV export.
 */
import { Anchor, Button, Checkbox, NativeSelect, Popover, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api';
import { DebouncedInput } from '../components/ui/DebouncedInput';
import { downloadListCsv, saveDownload, type ListParams } from './api';
import type { ListColumn, ListConfig } from './types';
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
    />
  );
}

export function ColumnChooser({
  columns,
  hidden,
  onChange,
  editorLink,
}: {
  columns: ListColumn[];
  hidden: string[];
  onChange: (hidden: string[]) => void;
  editorLink?: string;
}) {
  const visible = columns.filter((c) => !hidden.includes(c.name));
  return (
    <Popover position="bottom-end" shadow="md" trapFocus returnFocus withinPortal>
      <Popover.Target>
        <Button variant="default" disabled={columns.length === 0}>
          Columns{hidden.length ? ` (${visible.length}/${columns.length})` : ''}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" component="fieldset" className={classes.fieldset}>
          <Text component="legend" fw={600} size="sm" mb={4}>
            Show columns
          </Text>
          {columns.map((column) => {
            const shown = !hidden.includes(column.name);
            return (
              <Checkbox
                key={column.name}
                label={column.label}
                checked={shown}
                // The last visible column stays.
                disabled={shown && visible.length === 1}
                onChange={(e) =>
                  onChange(e.currentTarget.checked ? hidden.filter((h) => h !== column.name) : [...hidden, column.name])
                }
              />
            );
          })}
          {hidden.length > 0 && (
            <Button variant="subtle" size="compact-sm" onClick={() => onChange([])}>
              Show all
            </Button>
          )}
          {editorLink && (
            <Anchor component={Link} to={editorLink} size="sm">
              Change the list's columns…
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
