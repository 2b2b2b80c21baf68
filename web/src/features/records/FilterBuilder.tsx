/**
 * The filter builder: rows of field / operator / value joined by and/or, with a text box
 * for the raw expression as the alternative view of the same filter (see filter.ts).
 * Controlled: the parent owns the expression; this component owns only the draft rows.
 */
import { ActionIcon, Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import {
  clauseProblem,
  FilterSyntaxError,
  ME,
  newClause,
  operatorsFor,
  operatorLabel,
  parseFilter,
  serializeFilter,
  type Clause,
  type Join,
  type Operator,
} from './filter';
import { RecordLookup } from './RecordLookup';
import type { KindField } from './types';
import classes from './records.module.css';

export type FilterMode = 'builder' | 'text';

/** The draft of a filter being edited, in both of its forms. */
export interface FilterDraft {
  mode: FilterMode;
  clauses: Clause[];
  text: string;
}

/** A draft for `expression`: the builder when it parses, else the text box. */
export function draftFor(expression: string, fields: readonly KindField[]): FilterDraft {
  try {
    return { mode: 'builder', clauses: parseFilter(expression, fields), text: expression };
  } catch {
    return { mode: 'text', clauses: [], text: expression };
  }
}

export interface DraftCheck {
  /** The expression to apply, when the draft is fine. */
  expression?: string;
  /** Per builder row, its problem. */
  rowProblems: (string | null)[];
  /** The text box's problem. */
  textProblem: string | null;
}

/** Validates a draft and, when it is fine, gives its expression. */
export function checkDraft(draft: FilterDraft, fields: readonly KindField[]): DraftCheck {
  if (draft.mode === 'builder') {
    const rowProblems = draft.clauses.map((c) => clauseProblem(c, fields as KindField[]));
    if (rowProblems.some((p) => p !== null)) return { rowProblems, textProblem: null };
    return { expression: serializeFilter(draft.clauses.map((c) => ({ ...c, value: c.value.trim() }))), rowProblems, textProblem: null };
  }
  try {
    parseFilter(draft.text, fields);
    return { expression: draft.text.trim(), rowProblems: [], textProblem: null };
  } catch (error) {
    return { rowProblems: [], textProblem: error instanceof FilterSyntaxError ? error.message : String(error) };
  }
}

function ValueInput({ field, value, onChange, label, error }: { field: KindField | undefined; value: string; onChange: (v: string) => void; label: string; error?: string | null }) {
  const common = { 'aria-label': label, value, error: error ?? undefined, size: 'sm' as const };
  if (field?.type === 'status' && field.choices?.length) {
    const data = field.choices.includes(value) || value === '' ? field.choices : [value, ...field.choices];
    return <NativeSelect {...common} data={data} onChange={(e) => onChange(e.currentTarget.value)} />;
  }
  if (field?.type === 'boolean') {
    return (
      <NativeSelect
        {...common}
        data={[
          { value: 'true', label: 'Yes' },
          { value: 'false', label: 'No' },
        ]}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    );
  }
  if (field?.type === 'date') return <TextInput {...common} type="date" onChange={(e) => onChange(e.currentTarget.value)} />;
  if (field?.type === 'reference' && field.ref) {
    // A reference is filtered on the record's id; the user picks the record by name. The
    // user's own employee record ($me) reads "Me" until another is picked.
    const id = /^\d+$/.test(value.trim()) ? Number(value) : null;
    const placeholder = value.trim() === ME ? 'Me' : undefined;
    return (
      <RecordLookup label={label} hideLabel kind={field.ref} value={id} placeholder={placeholder} onChange={(picked) => onChange(picked === null ? '' : String(picked))} error={error} />
    );
  }
  const numeric = ['money', 'quantity', 'number', 'percent', 'reference'].includes(field?.type ?? '');
  return (
    <TextInput
      {...common}
      inputMode={numeric ? 'decimal' : undefined}
      placeholder={field?.type === 'reference' ? 'Record id' : field?.type === 'percent' ? 'Percent, like 75' : numeric ? 'Number' : 'Value'}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}

export interface FilterBuilderProps {
  fields: KindField[];
  draft: FilterDraft;
  onChange: (draft: FilterDraft) => void;
  /** Problems found by {@link checkDraft} on the last attempt to apply. */
  check?: DraftCheck | null;
  /** Prefix for element ids (several builders may share a page). */
  id: string;
}

export function FilterBuilder({ fields, draft, onChange, check, id }: FilterBuilderProps) {
  const [switchProblem, setSwitchProblem] = useState<string | null>(null);
  const setClauses = (clauses: Clause[]) => onChange({ ...draft, clauses, text: serializeFilter(clauses) });
  const update = (index: number, patch: Partial<Clause>) => setClauses(draft.clauses.map((c, i) => (i === index ? { ...c, ...patch } : c)));

  function changeField(index: number, name: string) {
    const field = fields.find((f) => f.name === name);
    const fresh = newClause(field, draft.clauses[index]?.join);
    const old = draft.clauses[index];
    // Keep the operator when the new field has it too.
    if (old && field && operatorsFor(field).includes(old.op)) fresh.op = old.op;
    update(index, fresh);
  }

  function toText() {
    setSwitchProblem(null);
    onChange({ ...draft, mode: 'text', text: serializeFilter(draft.clauses) });
  }

  function toBuilder() {
    try {
      const clauses = parseFilter(draft.text, fields);
      setSwitchProblem(null);
      onChange({ mode: 'builder', clauses, text: draft.text });
    } catch (error) {
      setSwitchProblem(`The builder cannot show this filter: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  if (draft.mode === 'text') {
    return (
      <Stack gap="xs">
        <TextInput
          id={`${id}-text`}
          label="Filter expression"
          classNames={{ input: classes.mono }}
          description={`Conditions like "field op value" joined by and / or (and binds tighter). Operators: eq ne lt le gt ge contains startswith. Quote values with spaces. Fields: ${fields.map((f) => f.name).join(', ')}.`}
          value={draft.text}
          onChange={(e) => onChange({ ...draft, text: e.currentTarget.value })}
          error={check?.textProblem ?? switchProblem ?? undefined}
          autoComplete="off"
          spellCheck={false}
        />
        <Group gap="xs">
          <Button variant="subtle" size="compact-sm" onClick={toBuilder}>
            Use the builder
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="xs" role="group" aria-label="Filter conditions">
      {draft.clauses.length === 0 && (
        <Text size="sm" c="dimmed">
          No conditions: every record of the list shows.
        </Text>
      )}
      {draft.clauses.map((clause, index) => {
        const field = fields.find((f) => f.name === clause.field);
        const ops = operatorsFor(field);
        const n = index + 1;
        return (
          <div key={index} className={classes.filterRow} data-testid="filter-row">
            {index === 0 ? (
              <Text size="sm" fw={500} pt={6}>
                Where
              </Text>
            ) : (
              <NativeSelect
                aria-label={`Condition ${n} joins with`}
                size="sm"
                value={clause.join}
                data={[
                  { value: 'and', label: 'and' },
                  { value: 'or', label: 'or' },
                ]}
                onChange={(e) => update(index, { join: e.currentTarget.value as Join })}
              />
            )}
            <NativeSelect
              aria-label={`Condition ${n} field`}
              size="sm"
              value={clause.field}
              data={[...(field ? [] : [{ value: '', label: 'Choose a field' }]), ...fields.map((f) => ({ value: f.name, label: f.label }))]}
              onChange={(e) => changeField(index, e.currentTarget.value)}
            />
            <NativeSelect
              aria-label={`Condition ${n} operator`}
              size="sm"
              value={clause.op}
              data={ops.map((op) => ({ value: op, label: operatorLabel(op, field?.type) }))}
              onChange={(e) => update(index, { op: e.currentTarget.value as Operator })}
            />
            <ValueInput field={field} value={clause.value} label={`Condition ${n} value`} onChange={(value) => update(index, { value })} error={check?.rowProblems[index]} />
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={`Remove condition ${n}`}
              onClick={() => setClauses(draft.clauses.filter((_, i) => i !== index))}
            >
              <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
                <path d="M18 6 6 18M6 6l12 12" />
              </svg>
            </ActionIcon>
          </div>
        );
      })}
      <Group gap="xs">
        <Button variant="light" size="compact-sm" onClick={() => setClauses([...draft.clauses, newClause(fields[0])])}>
          Add condition
        </Button>
        <Button variant="subtle" size="compact-sm" onClick={toText}>
          Edit as text
        </Button>
      </Group>
    </Stack>
  );
}
