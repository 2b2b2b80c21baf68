/**
 * Inline edit in a list: a cell of a field the form edits gets a pencil button ("Change
 * Status of “Wetland restoration”"), shown when the row is pointed at or has the focus and
 * always on a touch screen. It opens a small dialog anchored to the cell with the field's
 * form control (FieldInput), filled with the record's value read afresh (its record view,
 * for the version the edit is made on), and Save and Cancel; Enter saves, Escape cancels,
 * and the focus goes back to the pencil.
 *
 * The save is the form's (useSaveRecord, `PUT {product}-crud` with `{fields, version}` and
 * an Idempotency-Key), with its checks (schema.fieldError) and its reading of a failure
 * (saveErrors): a field error shows under the control, the input kept; a conflict (409)
 * shows the value saved meanwhile and saves again on the new version; other problems show
 * in the dialog. Saved, the dialog closes, the kind's lists refetch and the app's alert
 * says so politely ("Saved.", and that the change is on its way to NetSuite while it is).
 *
 * Fields offered: those a form may change (not system fields, not the record's code) of
 * the types a form control edits on its own — text, status, numbers, dates, yes/no, email
 * and phone; a reference needs its lookup, and is left to the form.
 */
import { ActionIcon, Button, Group, Loader, Popover, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { PencilIcon } from '../../components/icons';
import { ApiError } from '../../lib/api';
import { useAppStore } from '../../lib/appState';
import { listPagesKey } from '../../lib/queryKeys';
import { newKey } from './BulkActions';
import { fieldOf } from './kinds';
import { currencyOf } from './format';
import { FieldInput } from './form/FieldInput';
import { ConflictAlert, ProblemAlert } from './form/RecordFormAlerts';
import { saveFailure, savedMeanwhileNote, type Conflict, type FormProblem, type SaveFailure } from './form/saveErrors';
import { fieldError, formValueOf, isEditable, recordValues, sameValue, saveValueOf, type FormValue } from './form/schema';
import { useSaveRecord } from './form/useSaveRecord';
import { recordQuery } from './queries';
import { errorSentence } from './States';
import type { CellValue, FieldType, Kind, KindField, ListColumn, RecordDetail, Row, SavedRecord } from './types';
import classes from './InlineEdit.module.css';

/** The field types whose form control edits a value on its own (a reference needs its lookup). */
const INLINE_TYPES: ReadonlySet<FieldType> = new Set<FieldType>(['status', 'text', 'number', 'money', 'quantity', 'percent', 'date', 'boolean', 'email', 'phone']);

/** Whether a list offers to edit the field in its cells: the role edits the kind, and a form would let it change the field. */
export function isInlineEditable(kind: Kind, field: KindField | undefined): field is KindField {
  return !!field && kind.canEdit && isEditable(field) && field.column !== 'code' && INLINE_TYPES.has(field.type);
}

/** What an inline edit that changed nothing says (the form's "already has these values"). */
function nothingSaved(kind: Pick<Kind, 'label'>): string {
  return `The ${kind.label.toLowerCase()} already has this value: nothing was saved.`;
}

/** What a saved inline edit says. */
export function savedMessage(saved: SavedRecord, kind: Pick<Kind, 'label'>): string {
  if (saved.unchanged) return nothingSaved(kind);
  if (saved.write?.state === 'pending') return 'Saved. The change is on its way to NetSuite.';
  if (saved.write?.state === 'failed') return `Saved here, but NetSuite did not take it${saved.write.error ? `: ${saved.write.error}` : '.'}`;
  return 'Saved.';
}

/** The accessible name of a cell's pencil, and of the dialog it opens. */
export function inlineEditLabel(field: Pick<KindField, 'label'>, recordName: string): string {
  return `Change ${field.label} of “${recordName}”`;
}

/**
 * For a list's DataTable (`editCell`): wraps the cells of a kind's inline-editable fields
 * in their editor; undefined when the role may not edit the kind.
 */
export function inlineEditCells(kind: Kind) {
  if (!kind.canEdit) return undefined;
  return function editCell(cell: ReactNode, row: Row, column: ListColumn, recordName: string): ReactNode {
    const field = fieldOf(kind, column.name);
    if (!isInlineEditable(kind, field)) return cell;
    return (
      <InlineEdit kind={kind} field={field} id={row.id} recordName={recordName} shown={row[column.name]}>
        {cell}
      </InlineEdit>
    );
  };
}

export interface InlineEditProps {
  kind: Kind;
  field: KindField;
  /** The record's id. */
  id: number;
  /** What the record is called (its title), for the pencil's name. */
  recordName: string;
  /** The value the list shows: the control's when the record's view lacks the field. */
  shown?: CellValue;
  /** The cell's value as the list shows it. */
  children: ReactNode;
}

/**
 * A cell's value with its pencil, and the dialog the pencil opens. The dialog (a Popover,
 * anchored to the cell's content) exists only while open: a list of many cells keeps no
 * popover machinery for each. Escape, Cancel and a save put the focus back on the pencil;
 * a click elsewhere leaves it where the click put it.
 */
export function InlineEdit({ kind, field, id, recordName, shown, children }: InlineEditProps) {
  const [opened, setOpened] = useState(false);
  const pencil = useRef<HTMLButtonElement>(null);
  // A press on the pencil while open closes the dialog as a click outside it (before the
  // click): that click must not open it again (a click from the keyboard, detail 0, opens).
  const pressedOpen = useRef(false);
  const label = inlineEditLabel(field, recordName);

  function close(returnFocus: boolean) {
    setOpened(false);
    if (returnFocus) pencil.current?.focus();
  }

  return (
    <span className={classes.cell}>
      <span className={classes.value}>{children}</span>
      <ActionIcon
        ref={pencil}
        variant="subtle"
        color="gray"
        size="sm"
        className={classes.pencil}
        aria-label={label}
        aria-haspopup="dialog"
        aria-expanded={opened}
        onPointerDown={() => {
          pressedOpen.current = opened;
        }}
        onClick={(event) => {
          const closing = pressedOpen.current && event.detail > 0;
          pressedOpen.current = false;
          if (closing) close(true);
          else setOpened(true);
        }}
      >
        <PencilIcon />
      </ActionIcon>
      {opened && (
        <Popover
          opened
          onChange={(open) => !open && close(false)}
          closeOnEscape={false}
          trapFocus
          withRoles={false}
          position="bottom-start"
          shadow="md"
          width={300}
        >
          <Popover.Target>
            <span className={classes.anchor} aria-hidden="true" />
          </Popover.Target>
          <Popover.Dropdown
            role="dialog"
            aria-label={label}
            tabIndex={-1}
            data-testid="inline-edit"
            onKeyDown={(event) => {
              if (event.key !== 'Escape') return;
              event.stopPropagation();
              close(true);
            }}
          >
            <InlineEditor kind={kind} field={field} id={id} shown={shown} onClose={() => close(true)} />
          </Popover.Dropdown>
        </Popover>
      )}
    </span>
  );
}

interface EditorProps {
  kind: Kind;
  field: KindField;
  /** The value the list shows. */
  shown?: CellValue;
  onClose: () => void;
}

/** Reads the record (its version and value now), then offers its field's control. */
function InlineEditor({ id, ...props }: EditorProps & { id: number }) {
  const { kind, onClose } = props;
  const read = useQuery({ ...recordQuery(kind.name, id), refetchOnMount: 'always' });
  // The record as read on opening: a later refetch (a live event) does not change what the edit is on.
  const [record, setRecord] = useState<RecordDetail | null>(null);
  if (!record && read.isFetchedAfterMount && read.isSuccess) setRecord(read.data);

  if (record) return <InlineForm {...props} record={record} />;
  if (read.isError && read.isFetchedAfterMount && !read.isFetching) {
    return (
      <Stack gap="xs">
        <Text size="sm" c="red.8" role="alert">
          {errorSentence(read.error, `the ${kind.label.toLowerCase()}`)}
        </Text>
        <Group justify="flex-end" gap="xs">
          <Button size="compact-sm" variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button size="compact-sm" variant="light" onClick={() => void read.refetch()}>
            Try again
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Stack gap="xs">
      <Group gap="xs" role="status">
        <Loader size="xs" />
        <Text size="sm">Reading the current value…</Text>
      </Group>
      <Group justify="flex-end">
        <Button size="compact-sm" variant="default" onClick={onClose}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}

/** The field's control, with Save and Cancel, on the record as read. */
function InlineForm({ kind, field, shown, record, onClose }: EditorProps & { record: RecordDetail }) {
  const queryClient = useQueryClient();
  const raiseAlert = useAppStore((s) => s.raiseAlert);
  const save = useSaveRecord();
  const [baseline, setBaseline] = useState<FormValue>(() => {
    const values = recordValues(record);
    return formValueOf(field, field.name in values ? values[field.name] : shown);
  });
  const [value, setValue] = useState<FormValue>(baseline);
  const [version, setVersion] = useState(record.version);
  const [error, setError] = useState<string | undefined>();
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [focusTick, setFocusTick] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  // One Idempotency-Key per value and version: sending the same again (after a lost answer) reuses it.
  const submission = useRef<{ sent: string; key: string } | null>(null);
  const currency = field.type === 'money' ? currencyOf(record.currency, field.currency) : undefined;
  // The control takes the focus as it appears, and again after a problem with its value.
  useEffect(() => {
    const form = formRef.current;
    (form?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form?.querySelector<HTMLElement>('input, select, textarea'))?.focus();
  }, [focusTick]);

  function change(next: FormValue) {
    setValue(next);
    // A value in error is checked again as it is corrected.
    if (error) setError(fieldError(field, next) ?? undefined);
  }

  function failed(failure: SaveFailure) {
    if (failure.kind === 'invalid') {
      const { [field.name]: mine, ...others } = failure.fields;
      const messages = [...Object.values(others), ...failure.problem.messages];
      setError(mine);
      setProblem(mine && messages.length === 0 ? null : { title: failure.problem.title, messages });
      setFocusTick((n) => n + 1);
    } else if (failure.kind === 'conflict') {
      setConflict(failure.conflict);
      // Saving again puts the input over what is saved now.
      setVersion(failure.version);
    } else {
      setProblem(failure.problem);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    setProblem(null);
    // Compared with the value it opened with, or after a 409 with the value saved now.
    const reference = conflict ? formValueOf(field, conflict.current[field.name]) : baseline;
    if (sameValue(field, value, reference)) {
      if (conflict) raiseAlert({ type: 'alert-success', message: nothingSaved(kind) });
      onClose();
      return;
    }
    const wrong = fieldError(field, value);
    if (wrong) {
      setError(wrong);
      setFocusTick((n) => n + 1);
      return;
    }
    setError(undefined);
    const fields = { [field.name]: saveValueOf(field, value) };
    const sent = JSON.stringify([fields, version]);
    if (submission.current?.sent !== sent) submission.current = { sent, key: newKey() };
    try {
      const saved = await save.mutateAsync({ type: kind.name, id: record.id, input: { fields, version, idempotencyKey: submission.current.key } });
      // The list shows the value saved (its count and totals too).
      void queryClient.invalidateQueries({ queryKey: listPagesKey(kind.name) });
      raiseAlert({ type: 'alert-success', message: savedMessage(saved, kind) });
      onClose();
    } catch (caught) {
      failed(saveFailure(kind, caught instanceof ApiError ? caught : new ApiError('Error', caught instanceof Error ? caught.message : String(caught))));
    }
  }

  /** Drops the input for the value saved now (after a 409). */
  function loadCurrent() {
    if (!conflict) return;
    const now = formValueOf(field, conflict.current[field.name]);
    setBaseline(now);
    setValue(now);
    setError(undefined);
    setConflict(null);
    setFocusTick((n) => n + 1);
  }

  // Enter saves from a select or a checkbox too (a text box submits on Enter by itself).
  function enterSaves(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    const target = event.target;
    if (target instanceof HTMLSelectElement || (target instanceof HTMLInputElement && target.type === 'checkbox')) {
      event.preventDefault();
      formRef.current?.requestSubmit();
    }
  }

  return (
    <form ref={formRef} onSubmit={(event) => void submit(event)} onKeyDown={enterSaves} noValidate>
      <Stack gap="xs">
        <FieldInput
          field={field}
          value={value}
          onChange={change}
          error={error}
          description={conflict ? savedMeanwhileNote(field, value, conflict.current[field.name], currency) : undefined}
          currency={currency}
        />
        {conflict && <ConflictAlert conflict={conflict} saving={save.isPending} onLoadCurrent={loadCurrent} />}
        {problem && <ProblemAlert problem={problem} />}
        <Group justify="flex-end" gap="xs">
          <Button size="compact-sm" variant="default" onClick={onClose}>
            Cancel
          </Button>
          {/* After a 409 the conflict's own button saves again. */}
          {!conflict && (
            <Button type="submit" size="compact-sm" loading={save.isPending}>
              Save
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
