/**
 * What a failed save (`{product}-crud`) means to whoever sent it — the record form, or an
 * inline edit in a list: the server's field errors (422), a conflict with the values saved
 * meanwhile (409), or one problem of the whole save (403, 400, no connection) — and how a
 * value saved meanwhile reads beside the user's input.
 */
import type { ApiError } from '../../../lib/api';
import { formatValue } from '../format';
import { errorSentence } from '../States';
import type { CellValue, CurrentValues, Kind, KindField } from '../types';
import { formValueOf, sameValue, type FieldErrors, type FormValue } from './schema';

/** A 409 answer: the server's sentence and the record's values now. */
export interface Conflict {
  detail: string;
  current: Record<string, CellValue>;
}

/** A problem of the whole form (not of one field). */
export interface FormProblem {
  title: string;
  messages: string[];
}

/** A failed save, sorted: field errors (and the other messages of a 422), a conflict, or one problem. */
export type SaveFailure =
  | { kind: 'invalid'; fields: FieldErrors; problem: FormProblem }
  | { kind: 'conflict'; conflict: Conflict; version: string | undefined }
  | { kind: 'problem'; problem: FormProblem };

/**
 * Sorts a save's failure. A 422's errors on `kind`'s fields are field errors; its other
 * messages (and its title) a problem of the whole save. A 409 with `current` is a conflict:
 * saving again is on its `version`. Anything else is one problem: "Not allowed" (403),
 * else "Could not save the <label>", in a sentence (errorSentence).
 */
export function saveFailure(kind: Kind, error: ApiError): SaveFailure {
  const body = error.problem ?? {};
  if (error.status === 422) {
    const fields: FieldErrors = {};
    const other: string[] = [];
    for (const e of Array.isArray(body.errors) ? (body.errors as { field: string; message: string }[]) : []) {
      if (kind.fields.some((f) => f.name === e.field)) fields[e.field] = e.message;
      else other.push(e.message);
    }
    return { kind: 'invalid', fields, problem: { title: error.message, messages: other } };
  }
  if (error.status === 409 && body.current && typeof body.current === 'object') {
    const current = body.current as CurrentValues;
    return { kind: 'conflict', conflict: { detail: error.message, current }, version: current.version };
  }
  const label = kind.label.toLowerCase();
  const title = error.status === 403 ? 'Not allowed' : `Could not save the ${label}`;
  return { kind: 'problem', problem: { title, messages: [errorSentence(error, `the ${label}`)] } };
}

/**
 * Under a field after a 409: the value saved now ("Saved meanwhile: Closed"), where it
 * differs from the input; undefined where it does not. Money reads in `currency`.
 */
export function savedMeanwhileNote(field: KindField, input: FormValue, now: CellValue, currency?: string): string | undefined {
  if (sameValue(field, input, formValueOf(field, now))) return undefined;
  return `Saved meanwhile: ${formatValue(now, field.type, { currency }) || '(empty)'}`;
}
