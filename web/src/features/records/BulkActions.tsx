/**
 * What a list page does with its selected rows: the selection bar (how many, export them
 * as CSV, edit a field of them all, approve or reject them, clear), the bulk edit dialog,
 * and what became of each record of a bulk edit or decision (BulkResultView). A bulk edit
 * is one request; the server saves each record on its own (validation, history, NetSuite)
 * and says what became of each, so the dialog reports partial failures record by record
 * and keeps the failed ones selected for another try. An amount set in bulk is in the selected
 * records' one currency, which its input shows; when they are in several, or the list did not
 * show their currency, amounts are not offered (bulkMoney).
 */
import { Alert, Button, Group, List, Modal, NativeSelect, Radio, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api';
import { currencyOf, formatCount, joinTotals } from './format';
import { FieldInput } from './form/FieldInput';
import { fieldError, saveValueOf, type FormValue } from './form/schema';
import { baseCurrency, isChoosable } from './kinds';
import { useBulkEdit } from './queries';
import type { ApprovalDecision, BulkOutcomes, BulkResult, Kind, KindField, ListCount, Row } from './types';
import classes from './list.module.css';

/** The most records one bulk edit or export takes (the server's limit too). */
export const MAX_SELECTION = 200;

/**
 * The fields a bulk edit may set: those a form may edit (not read-only) and the role can
 * pick a value for (a reference to a kind it may see: `kinds`, the kinds it sees), less
 * the title — one name for many records is never what anyone wants.
 */
export function bulkEditableFields(kind: Kind, kinds: readonly Kind[]): KindField[] {
  return kind.fields.filter((f) => !f.readOnly && f.column !== 'title' && isChoosable(f, kinds));
}

/** Whether an input holds no value to set (a yes/no field always holds one). */
function holdsNoValue(field: KindField, value: FormValue): boolean {
  const saved = saveValueOf(field, value);
  return saved === null || saved === '';
}

/** Whether amounts may be set in bulk on the selected rows, and in what currency. */
export interface BulkMoney {
  /** Every selected record is in one known currency: money fields are offered. */
  allowed: boolean;
  /** That currency (undefined when the tenant's base currency is not named). */
  currency?: string;
  /** Why money fields are not offered, in one sentence. */
  why?: string;
}

/**
 * An amount set on many records is in each record's own currency: it means one thing only
 * when they all are in one. A row names its currency (`_currency`, else the base one) only
 * when it was read with a money column; a row without one leaves its currency unknown.
 */
export function bulkMoney(kind: Kind, rows: readonly Row[]): BulkMoney {
  const money = kind.fields.filter((f) => f.type === 'money');
  if (money.length === 0) return { allowed: true };
  if (!rows.every((row) => money.some((f) => Object.hasOwn(row, f.name)))) {
    return { allowed: false, why: 'Amounts can be set in bulk only from a list that shows an amount, so that each record’s currency is known.' };
  }
  const base = baseCurrency([kind]);
  const currencies = [...new Set(rows.map((row) => currencyOf(row._currency, base)))];
  if (currencies.length > 1) {
    const named = currencies.filter((c): c is string => !!c);
    return { allowed: false, why: `Amounts can be set in bulk only on records in one currency${named.length > 1 ? ` (these are in ${joinTotals(named)})` : ''}.` };
  }
  return { allowed: true, currency: currencies[0] };
}

/** A fresh Idempotency-Key. */
export function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

export interface SelectionBarProps {
  kind: Kind;
  count: number;
  /** How many records the list matches (over every page), when counted. */
  matching?: ListCount | null;
  /** Selects every matching record: offered while they are more than the selection and at most MAX_SELECTION. */
  onSelectAll: () => void;
  selectingAll: boolean;
  /** Bulk edit is offered (the role may edit the kind and it has an editable field). */
  canEdit: boolean;
  /** Approve and Reject are offered (the kind goes through approval and the role decides some of its records). */
  canApprove?: boolean;
  exporting: boolean;
  onExport: () => void;
  onEdit: () => void;
  onDecide?: (decision: ApprovalDecision) => void;
  onClear: () => void;
}

export function SelectionBar({ kind, count, matching, onSelectAll, selectingAll, canEdit, canApprove, exporting, onExport, onEdit, onDecide, onClear }: SelectionBarProps) {
  const noun = count === 1 ? kind.label.toLowerCase() : kind.plural.toLowerCase();
  const more = matching && matching.total > count ? matching : null;
  return (
    <div className={classes.selectionBar} role="region" aria-label="Selected records">
      <Text size="sm" fw={600} aria-live="polite" data-testid="selection-count">
        {count} {noun} selected
      </Text>
      {more &&
        (!more.estimated && more.total <= MAX_SELECTION ? (
          <Button size="compact-sm" variant="light" loading={selectingAll} onClick={onSelectAll}>
            Select all {formatCount(more.total)} matching
          </Button>
        ) : (
          <Text size="sm" c="dimmed" data-testid="selection-bound">
            {more.estimated ? 'About ' : ''}
            {formatCount(more.total)} match; at most {MAX_SELECTION} can be selected at a time.
          </Text>
        ))}
      <Group gap="xs" ml="auto" wrap="wrap">
        <Button size="compact-sm" variant="default" loading={exporting} onClick={onExport}>
          Export selected
        </Button>
        {canEdit && (
          <Button size="compact-sm" variant="default" onClick={onEdit}>
            Edit a field…
          </Button>
        )}
        {canApprove && onDecide && (
          <>
            <Button size="compact-sm" variant="light" color="teal" onClick={() => onDecide('approve')}>
              Approve
            </Button>
            <Button size="compact-sm" variant="light" color="red" onClick={() => onDecide('reject')}>
              Reject
            </Button>
          </>
        )}
        <Button size="compact-sm" variant="subtle" onClick={onClear}>
          Clear selection
        </Button>
      </Group>
    </div>
  );
}

export interface BulkResultViewProps {
  kind: Kind;
  result: BulkOutcomes;
  /** What became of those that were saved, as the summary says it: "Saved", "Approved". */
  done: string;
  /** What is on its way to NetSuite: "changes", "decisions". */
  what: string;
  onClose: () => void;
}

/**
 * The answer of a request on many records (a bulk edit, an approval decision), in its
 * dialog: how many of them it saved, whether that is on its way to NetSuite, and each that
 * failed, by name, with why (those stay selected).
 */
export function BulkResultView({ kind, result, done, what, onClose }: BulkResultViewProps) {
  const pending = result.results.filter((r) => r.saved && r.write?.state === 'pending').length;
  return (
    <Stack gap="sm" data-testid="bulk-result">
      <Alert color={result.failed ? 'yellow' : 'green'} variant="light" role="status" title={`${done} ${result.saved} of ${result.results.length} ${kind.plural.toLowerCase()}.`}>
        {pending > 0 && <Text size="sm">The {what} are on their way to NetSuite.</Text>}
        {result.failed > 0 && <Text size="sm">These were not {done.toLowerCase()} and stay selected:</Text>}
      </Alert>
      {result.failed > 0 && (
        <List size="sm" spacing={4}>
          {result.results
            .filter((r) => !r.saved)
            .map((r) => (
              <List.Item key={r.id}>
                <Text span fw={500} size="sm">
                  {r.title || `${kind.label} ${r.id}`}
                </Text>
                : {r.message}
              </List.Item>
            ))}
        </List>
      )}
      <Group justify="flex-end">
        <Button onClick={onClose} data-autofocus>
          Close
        </Button>
      </Group>
    </Stack>
  );
}

export interface BulkEditDialogProps {
  kind: Kind;
  /** The kinds the role sees: a reference field is offered only when its kind is one. */
  kinds: readonly Kind[];
  /** The selected rows, as the list showed them (their `_currency` says what amounts are in). */
  rows: Row[];
  opened: boolean;
  onClose: () => void;
  /** After an answer: the ids that were not saved (they stay selected). */
  onDone: (failed: number[]) => void;
}

/** Mount it only while open (a fresh form each time). */
export function BulkEditDialog({ kind, kinds, rows, opened, onClose, onDone }: BulkEditDialogProps) {
  // The records selected as it opened: saving them unselects them, and the dialog still
  // speaks of them ("Edit 3 project requests", not 0) until it closes.
  const [{ ids, money }] = useState(() => ({ ids: rows.map((r) => r.id), money: bulkMoney(kind, rows) }));
  const editable = bulkEditableFields(kind, kinds);
  const fields = money.allowed ? editable : editable.filter((f) => f.type !== 'money');
  // Said when it keeps an amount field from being offered.
  const moneyNote = fields.length < editable.length ? money.why : undefined;
  const [fieldName, setFieldName] = useState(fields[0]?.name ?? '');
  const [value, setValue] = useState<FormValue>('');
  // Emptying a field on every selected record is asked for in so many words, never
  // inferred from an empty input.
  const [clearing, setClearing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // One key per field and value: a retry of the same edit (after a lost answer) reuses it.
  const [key, setKey] = useState(newKey);
  const [result, setResult] = useState<BulkResult | null>(null);
  const edit = useBulkEdit();
  const field = fields.find((f) => f.name === fieldName);
  const plural = kind.plural.toLowerCase();
  const noun = ids.length === 1 ? kind.label.toLowerCase() : plural;

  function change(next: Partial<{ field: string; value: FormValue; clearing: boolean }>) {
    if (next.field !== undefined) setFieldName(next.field);
    if (next.field !== undefined || next.clearing !== undefined) setClearing(next.clearing ?? false);
    setValue(next.value !== undefined ? next.value : next.field !== undefined ? '' : value);
    setProblem(null);
    setKey(newKey());
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!field) return;
    const wrong = clearing
      ? undefined
      : holdsNoValue(field, value)
        ? `Enter a value for ${field.label}${field.required ? '' : ', or choose to clear the field'}.`
        : fieldError(field, value);
    if (wrong) {
      setProblem(wrong);
      return;
    }
    try {
      const answer = await edit.mutateAsync({ type: kind.name, input: { ids, field: field.name, value: clearing ? null : saveValueOf(field, value) }, key });
      setResult(answer);
      onDone(answer.results.filter((r) => !r.saved).map((r) => r.id));
    } catch (error) {
      const fieldProblem = error instanceof ApiError && Array.isArray(error.errors) ? (error.errors as { message?: string }[])[0]?.message : undefined;
      setProblem(fieldProblem ?? (error instanceof Error ? error.message : String(error)));
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title={`Edit ${ids.length} ${noun}`} centered size="md">
      {result ? (
        <BulkResultView kind={kind} result={result} done="Saved" what="changes" onClose={onClose} />
      ) : fields.length === 0 ? (
        <Stack gap="xs">
          <Text size="sm">{kind.plural} have no field that can be edited here.</Text>
          {moneyNote && <Text size="sm">{moneyNote}</Text>}
        </Stack>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate aria-label={`Edit ${ids.length} ${noun}`}>
          <Stack gap="sm">
            <Text size="sm">
              Sets one field to the same value on each selected {kind.label.toLowerCase()}. Each is saved on its own, with its history.
            </Text>
            <NativeSelect
              label="Field"
              value={fieldName}
              data={fields.map((f) => ({ value: f.name, label: f.label }))}
              onChange={(e) => change({ field: e.currentTarget.value })}
              description={moneyNote}
              data-autofocus
            />
            {field && !field.required && (
              <Radio.Group
                label="Change"
                value={clearing ? 'clear' : 'set'}
                onChange={(choice) => change({ clearing: choice === 'clear' })}
              >
                <Group gap="md" mt={4}>
                  <Radio value="set" label="Set a new value" />
                  <Radio value="clear" label="Clear the field" />
                </Group>
              </Radio.Group>
            )}
            {field && !clearing && (
              <FieldInput
                key={field.name}
                field={{ ...field, required: false }}
                value={value}
                onChange={(v) => change({ value: v })}
                error={problem ?? undefined}
                description={field.required ? `${field.label} cannot be emptied.` : undefined}
                currency={field.type === 'money' ? money.currency : undefined}
              />
            )}
            {field && clearing && (
              <Text size="sm" role="status">
                {field.label} will be emptied on each of the {ids.length} selected {noun}.
              </Text>
            )}
            {clearing && problem && (
              <Text size="sm" c="red" role="alert">
                {problem}
              </Text>
            )}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={edit.isPending} color={clearing ? 'red' : undefined}>
                {clearing ? `Clear on ${ids.length} ${noun}` : `Apply to ${ids.length} ${noun}`}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
