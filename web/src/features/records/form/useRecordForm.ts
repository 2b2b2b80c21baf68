import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, type Location } from 'react-router';
import type { ApiError } from '../../../lib/api';
import { isNetworkFailure } from '../../../lib/api/errors';
import { isOnline } from '../../../lib/offline/online';
import { recordMarkKey, useEventsStore } from '../../events';
import { useAppStore } from '../../../lib/appState';
import { currencyOf, isRef } from '../format';
import { listPath, viewPath } from '../links';
import { kindsQuery, recordNameQuery } from '../queries';
import { isChoosable } from '../kinds';
import { recordIdOf } from '../recordId';
import { keepChange } from '../offline/outbox';
import type { CellValue, Kind, KindField, RecordDetail, SaveInput } from '../types';
import { formBasePath } from './links';
import {
  changedFields,
  fieldError,
  formValues,
  isDirty,
  recordValues,
  sameValue,
  saveFields,
  validate,
  type FieldErrors,
  type FormValue,
  type FormValues,
} from './schema';
import { saveFailure, savedMeanwhileNote, type Conflict, type FormProblem } from './saveErrors';
import { useSaveRecord } from './useSaveRecord';

export type { Conflict, FormProblem } from './saveErrors';

/** Puts the names of the references in `values` into the lookups' name cache. */
function seedNames(queryClient: QueryClient, kind: Kind, values: Record<string, CellValue>): void {
  for (const field of kind.fields) {
    const value = values[field.name];
    if (field.type === 'reference' && field.ref && isRef(value)) queryClient.setQueryData(recordNameQuery(field.ref, value.id).queryKey, value.refName);
  }
}

/**
 * The state and handlers of a record's create or edit form (see RecordForm): the input and
 * the values it started from, field and form errors, a 409 or a newer version arrived while
 * editing, and the save.
 */
export function useRecordForm(kind: Kind, record: RecordDetail | undefined) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const raiseAlert = useAppStore((s) => s.raiseAlert);
  const save = useSaveRecord();
  const page = record ? 'edit' : 'create';
  const [baseline, setBaseline] = useState<FormValues>(() => {
    if (!record) return formValues(kind);
    const current = recordValues(record);
    seedNames(queryClient, kind, current);
    return formValues(kind, current);
  });
  const [values, setValues] = useState<FormValues>(baseline);
  // The record's values as its page shows them, for the read-only (system) fields.
  const [shownValues, setShownValues] = useState<Record<string, CellValue>>(() => (record ? recordValues(record) : {}));
  // The server found nothing to change (the form's values were the record's already).
  const [nothingSaved, setNothingSaved] = useState(false);
  const [version, setVersion] = useState(record?.version);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [focusTick, setFocusTick] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  // Set once saved: the navigation to the saved record goes through unasked.
  const saved = useRef(false);
  // The save's Idempotency-Key, kept while the fields sent stay the same: submitting
  // again after a failure the server may not have seen (a lost answer), or sending it
  // from the device later, cannot create or apply it twice.
  const submission = useRef<{ fields: string; key: string } | null>(null);

  const dirty = isDirty(kind, values, baseline);
  // A reference to a kind the role may not see cannot be chosen (the lookup searches that
  // kind): it is shown, as a system field is, and kept as it is.
  const visibleKinds = useQuery(kindsQuery()).data;
  const choosable = (field: KindField) => isChoosable(field, visibleKinds);
  const base = formBasePath(kind, page);
  // Money is in the record's currency, else (and on a create) the field's base currency.
  const moneyCurrency = (field: KindField) => (field.type === 'money' ? currencyOf(record?.currency, field.currency) : undefined);
  const label = kind.label.toLowerCase();

  // Who saved the newer version the page refetched, when it came while the input was touched.
  const [newer, setNewer] = useState<{ by: string | undefined } | null>(null);
  const [seenVersion, setSeenVersion] = useState(record?.version);
  if (record && record.version !== seenVersion) {
    setSeenVersion(record.version);
    // The form's own save changes the version too; it leaves the form.
    if (record.version !== version && !save.isPending && !save.isSuccess) {
      if (dirty || conflict) {
        setNewer({ by: useEventsStore.getState().marks[recordMarkKey(kind.name, record.id)]?.by });
      } else {
        const current = formValues(kind, recordValues(record));
        setBaseline(current);
        setValues(current);
        setShownValues(recordValues(record));
        setVersion(record.version);
      }
    }
  }

  useEffect(() => {
    if (focusTick > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusTick]);

  function allows(next: Location): boolean {
    if (saved.current) return true;
    const onForm = base !== undefined && (next.pathname === base || next.pathname.startsWith(`${base}/`));
    return onForm && (!record || recordIdOf(new URLSearchParams(next.search)) === record.id);
  }

  function change(name: string, value: FormValue) {
    setNothingSaved(false);
    setValues((v) => ({ ...v, [name]: value }));
    // A field in error is checked again as it is corrected.
    if (errors[name]) recheck(name, value);
  }

  function recheck(name: string, value: FormValue) {
    const field = kind.fields.find((f) => f.name === name);
    const found = field ? fieldError(field, value) : null;
    setErrors(({ [name]: _old, ...rest }) => (found ? { ...rest, [name]: found } : rest));
  }

  function blur(name: string, to: EventTarget | null) {
    // Left for a button that submits this form: the submit checks every field. A message
    // appearing now would move the button from under the pointer before the click lands.
    if (to instanceof HTMLButtonElement && to.type === 'submit' && to.form === formRef.current) return;
    const field = kind.fields.find((f) => f.name === name);
    if (field && (errors[name] || !sameValue(field, values[name] ?? null, baseline[name] ?? null))) recheck(name, values[name] ?? null);
  }

  function showErrors(found: FieldErrors) {
    setErrors(found);
    setFocusTick((n) => n + 1);
  }

  function failed(error: ApiError) {
    const failure = saveFailure(kind, error);
    if (failure.kind === 'invalid') {
      setProblem(failure.problem);
      showErrors(failure.fields);
    } else if (failure.kind === 'conflict') {
      setConflict(failure.conflict);
      // Saving again puts the input over what is saved now.
      setVersion(failure.version);
    } else {
      setProblem(failure.problem);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    // Nothing changed: nothing to send (the button is off; Enter in a field lands here).
    if (record && !dirty && !conflict) return;
    // An edit is compared with the values it opened with, or after a 409 with the
    // record's values now ("use my values"): it sends, and checks, what differs.
    const reference = record ? (conflict ? formValues(kind, conflict.current) : baseline) : undefined;
    const found = validate(kind, values, reference);
    if (Object.keys(found).length > 0) {
      showErrors(found);
      return;
    }
    setErrors({});
    const fields = reference ? changedFields(kind, values, reference) : saveFields(kind, values);
    const sent = JSON.stringify(fields);
    if (submission.current?.fields !== sent) submission.current = { fields: sent, key: crypto.randomUUID() };
    const input = { fields, version: record ? version : undefined, idempotencyKey: submission.current.key };
    // Offline, the save is kept on the device straight away: nothing would answer it.
    if (!isOnline()) {
      void keepOnDevice(input);
      return;
    }
    save.mutate(
      { type: kind.name, id: record?.id ?? null, input },
      {
        onSuccess: async (result) => {
          if (result.unchanged) {
            // The record had these values already: nothing was written.
            setNothingSaved(true);
            setBaseline(values);
            setConflict(null);
            return;
          }
          saved.current = true;
          await navigate(viewPath(kind, result.id) ?? listPath(kind));
          raiseAlert({
            title: record ? `${kind.label} saved` : `${kind.label} created`,
            message: `“${result.title}” is ${record ? 'saved' : 'created'}.`,
            type: 'alert-success',
          });
        },
        // No answer for want of a network: kept on the device, sent again with the same key.
        onError: (error) => (isNetworkFailure(error) ? void keepOnDevice(input) : failed(error)),
      },
    );
  }

  /**
   * Keeps the save on the device to send when the network is back (the outbox), and
   * leaves the form for the record (or the list, for a new one), saying so. Where the
   * device cannot keep it, the form stays, with the input, and says why.
   */
  async function keepOnDevice(input: SaveInput) {
    const title = record ? `${kind.label} “${record.title || record.id}”` : `a new ${label}`;
    try {
      await keepChange({ type: kind.name, recordId: record?.id ?? null, title, input }, queryClient);
    } catch {
      setProblem({
        title: `Could not save the ${label}`,
        messages: ['The server cannot be reached, and this browser cannot keep the change on the device. Your input is still here: save again once the connection is back.'],
      });
      return;
    }
    saved.current = true;
    await navigate(record ? (viewPath(kind, record.id) ?? listPath(kind)) : listPath(kind));
    raiseAlert({
      type: 'alert-info',
      title: 'Kept on this device',
      message: `The server cannot be reached: your change to ${title} is kept on this device and sent when the connection is back.`,
    });
  }

  /** Shows the newer version beside the input, as after a 409 (the page holds the record refetched). */
  function reviewNewer() {
    if (!record || !newer) return;
    setConflict({ detail: `${newer.by ?? 'Someone'} saved this ${label} while you were editing. Under each field: their value where it differs from yours.`, current: recordValues(record) });
    setVersion(record.version);
    setNewer(null);
  }

  /** Drops the input for the values saved now (after a 409). */
  function loadCurrent() {
    if (!conflict) return;
    seedNames(queryClient, kind, conflict.current);
    const current = formValues(kind, conflict.current);
    setBaseline(current);
    setValues(current);
    setShownValues(conflict.current);
    setErrors({});
    setConflict(null);
  }

  /** Under a field after a 409: the value saved now, where it differs from the input. */
  function savedMeanwhile(name: string): string | undefined {
    const field = kind.fields.find((f) => f.name === name);
    if (!conflict || !field) return undefined;
    return savedMeanwhileNote(field, values[name] ?? null, conflict.current[name], moneyCurrency(field));
  }

  return {
    formRef,
    label,
    values,
    shownValues,
    errors,
    problem,
    conflict,
    newer,
    nothingSaved,
    dirty,
    saving: save.isPending,
    choosable,
    moneyCurrency,
    savedMeanwhile,
    change,
    blur,
    submit,
    reviewNewer,
    loadCurrent,
    allows,
  };
}
