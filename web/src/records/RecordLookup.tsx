/**
 * RecordLookup: picks one record of a kind by typing part of its name — the value of a
 * reference field (the filter builder's reference conditions; create and edit forms).
 *
 * Contract:
 * - `value` is the chosen record's id (null for none); the input shows that record's name
 *   (the name given when it was picked, else asked of the server once, else `#<id>`).
 * - Typing searches records of `kind` through the global search call (`searchRecords`,
 *   narrowed by type), 250 ms after the last keystroke and from 2 characters on; the
 *   results list each record's name and detail. Arrow keys move through them, Enter or a
 *   click picks one: `onChange(id, name)`. Emptying the box clears it: `onChange(null, '')`.
 *   Text typed but not picked is dropped when the box loses focus.
 * - It is a real combobox (role, expanded state, active option) with a label: visible, or
 *   only for assistive technology with `hideLabel` (a filter row).
 */
import { Combobox, Loader, Text, useCombobox } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DebouncedInput } from '../components/ui/DebouncedInput';
import { recordLookupQuery, recordNameQuery } from './queries';

/** Characters typed before the lookup searches. */
export const LOOKUP_MIN_CHARS = 2;
/** Delay after the last keystroke before the lookup searches. */
export const LOOKUP_DEBOUNCE_MS = 250;

export interface RecordLookupProps {
  /** The field's name; always the input's accessible name. */
  label: string;
  /** Show the label to assistive technology only (where the layout labels the row). */
  hideLabel?: boolean;
  /** The record type searched: a reference field's `ref`, e.g. "customer". */
  kind: string;
  /** The chosen record's id, or null for none. */
  value: number | null;
  /** A record was picked (its id and name), or the box was emptied (null, ''). */
  onChange: (id: number | null, name: string) => void;
  /** The field's problem, shown under it and announced with it. */
  error?: string | null;
  required?: boolean;
  description?: string;
  placeholder?: string;
  disabled?: boolean;
}

export function RecordLookup({ label, hideLabel, kind, value, onChange, error, required, description, placeholder, disabled }: RecordLookupProps) {
  const queryClient = useQueryClient();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  // What the user is typing; null while the box shows the chosen record's name.
  const [typed, setTyped] = useState<string | null>(null);
  // The typed text the search runs for (debounced).
  const [searched, setSearched] = useState('');

  const name = useQuery({ ...recordNameQuery(kind, value ?? 0), enabled: value !== null });
  const shownName = value === null ? '' : (name.data ?? `#${value}`);

  const ready = searched.length >= LOOKUP_MIN_CHARS;
  const results = useQuery({ ...recordLookupQuery(kind, searched), enabled: ready });
  const text = typed ?? shownName;
  const waiting = typed !== null && typed.trim() !== searched;

  function change(next: string) {
    setTyped(next);
    combobox.openDropdown();
    if (next.trim() === '' && value !== null) onChange(null, '');
  }

  function pick(optionValue: string) {
    const record = results.data?.find((r) => String(r.id) === optionValue);
    if (!record) return;
    queryClient.setQueryData(recordNameQuery(kind, record.id).queryKey, record.name);
    setTyped(null);
    combobox.closeDropdown();
    onChange(record.id, record.name);
  }

  let body;
  if ((typed ?? '').trim().length < LOOKUP_MIN_CHARS) {
    body = <Combobox.Empty>Type at least {LOOKUP_MIN_CHARS} characters of a name.</Combobox.Empty>;
  } else if (waiting || results.isFetching) {
    body = <Combobox.Empty>Searching…</Combobox.Empty>;
  } else if (results.error) {
    body = <Combobox.Empty>The search failed: {results.error.message}</Combobox.Empty>;
  } else if (!results.data?.length) {
    body = <Combobox.Empty>No matches.</Combobox.Empty>;
  } else {
    body = results.data.map((record) => (
      <Combobox.Option key={record.id} value={String(record.id)} active={record.id === value}>
        <Text size="sm" fw={500}>
          {record.name}
        </Text>
        {record.detail && (
          <Text size="xs" c="dimmed">
            {record.detail}
          </Text>
        )}
      </Combobox.Option>
    ));
  }

  return (
    <Combobox store={combobox} onOptionSubmit={pick} withinPortal>
      <Combobox.Target withExpandedAttribute>
        <DebouncedInput
          label={hideLabel ? undefined : label}
          aria-label={hideLabel ? label : undefined}
          description={description}
          placeholder={placeholder ?? 'Type to search'}
          required={required}
          disabled={disabled}
          error={error ?? undefined}
          value={text}
          onChange={change}
          onDebounced={(next) => setSearched(next.trim())}
          delay={LOOKUP_DEBOUNCE_MS}
          listenTo={['input']}
          onBlur={() => {
            setTyped(null);
            combobox.closeDropdown();
          }}
          rightSection={typed !== null && (waiting || results.isFetching) ? <Loader size="xs" /> : undefined}
          autoComplete="off"
          spellCheck={false}
          aria-autocomplete="list"
        />
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options aria-label={`${label}: matching records`}>{body}</Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
