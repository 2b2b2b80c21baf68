/**
 * RecordLookup: picks one record of a kind by typing part of its name — the value of a
 * reference field (the filter builder's reference conditions; create and edit forms).
 *
 * Contract:
 * - `value` is the chosen record's id (null for none); the input shows that record's name
 *   (the name given when it was picked or known to the page, else asked of the server once
 *   when the role may see that kind, else `#<id>`).
 * - Typing searches records of `kind` through the global search call (`searchRecords`,
 *   narrowed by type), 250 ms after the last keystroke and from 3 characters on (shorter text finds
 *   nothing on the server); the
 *   results list each record's name and detail. Arrow keys move through them, Enter or a
 *   click picks one: `onChange(id, name)`. Emptying the box clears it: `onChange(null, '')`.
 *   Text typed but not picked is dropped when the box loses focus.
 * - It is an ARIA combobox (role, expanded state, active option; the list is the global
 *   search's listbox) with a label: visible, or only for assistive technology with
 *   `hideLabel` (a filter row). Escape closes the list.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { DebouncedInput } from '../../components/ui/DebouncedInput';
import { OptionList, optionId, useActiveOption } from '../../components/search/OptionList';
import { resultOptions, type ResultOption } from './searchResults';
import { SearchStatus } from '../../components/search/SearchStatus';
import searchClasses from '../../components/search/Search.module.css';
import { kindsQuery, recordLookupQuery, recordNameQuery } from './queries';

/** Characters typed before the lookup searches: the server's shortest searchable text (search.MinText). */
export const LOOKUP_MIN_CHARS = 3;
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
  const listId = useId();
  // What the user is typing; null while the box shows the chosen record's name.
  const [typed, setTyped] = useState<string | null>(null);
  // The typed text the search runs for (debounced).
  const [searched, setSearched] = useState('');
  const [open, setOpen] = useState(false);

  // A kind the role may not see (its records' pages are refused) is never asked for: the
  // name is the one the page was given, if any.
  const visible = useQuery(kindsQuery()).data?.some((k) => k.name === kind) ?? false;
  const name = useQuery({ ...recordNameQuery(kind, value ?? 0), enabled: value !== null && visible });
  const shownName = value === null ? '' : (name.data ?? `#${value}`);

  const long = (typed ?? '').trim().length >= LOOKUP_MIN_CHARS;
  const results = useQuery({ ...recordLookupQuery(kind, searched), enabled: searched.length >= LOOKUP_MIN_CHARS });
  const waiting = typed?.trim() !== searched || results.isFetching;
  const options = useMemo(() => (long && !waiting && results.data ? resultOptions(results.data) : []), [long, waiting, results.data]);
  const cursor = useActiveOption(options);
  const expanded = open && typed !== null;

  function change(next: string) {
    setTyped(next);
    setOpen(true);
    if (next.trim() === '' && value !== null) onChange(null, '');
  }

  function pick({ result }: ResultOption) {
    queryClient.setQueryData(recordNameQuery(kind, result.id).queryKey, result.name);
    setTyped(null);
    setOpen(false);
    onChange(result.id, result.name);
  }

  function keyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      setOpen(false);
    } else if (expanded) {
      cursor.onKeyDown(event, (index) => pick(options[index]!));
    } else if (event.key === 'ArrowDown' && typed !== null) {
      event.preventDefault();
      setOpen(true);
    }
  }

  // SPEC §4 "Search": while typing or searching a spinner, then the results or "No Results".
  let status;
  if (!long) status = <div role="status" className={searchClasses.status}>Type at least {LOOKUP_MIN_CHARS} characters of a name.</div>;
  else if (results.error && !waiting) status = <div role="status" className={searchClasses.status}>The search failed: {results.error.message}</div>;
  else status = <SearchStatus loading={waiting} count={options.length} />;

  return (
    <div className={searchClasses.anchor}>
      <DebouncedInput
        label={hideLabel ? undefined : label}
        aria-label={hideLabel ? label : undefined}
        description={description}
        placeholder={placeholder ?? 'Type to search'}
        required={required}
        disabled={disabled}
        error={error ?? undefined}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && cursor.active >= 0 ? optionId(listId, cursor.active) : undefined}
        value={typed ?? shownName}
        onChange={change}
        onDebounced={(next) => setSearched(next.trim())}
        delay={LOOKUP_DEBOUNCE_MS}
        listenTo={['input']}
        onKeyDown={keyDown}
        onBlur={() => {
          setTyped(null);
          setOpen(false);
        }}
        autoComplete="off"
        spellCheck={false}
      />
      {expanded && (
        <div className={searchClasses.panel}>
          <OptionList id={listId} label={`${label}: matching records`} sections={[{ options }]} active={cursor.active} onHighlight={cursor.setActive} onChoose={pick} />
          {status}
        </div>
      )}
    </div>
  );
}
