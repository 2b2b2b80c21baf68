/**
 * The create/edit form's one schema: how a kind's fields (`GET /api/v1/kinds`) become form
 * values, which values are valid, and what a save sends. The rules and their messages are
 * the server's (internal/records/form.go), so the form catches mistakes before the round
 * trip and the server's answer reads the same when it catches one itself:
 *
 * - a required field needs a value;
 * - text (also status and date) is trimmed, then at most {@link MAX_TEXT} characters and
 *   free of control characters;
 * - a status is one of the field's choices;
 * - money and quantities are numbers from 0 with at most two decimals;
 * - a date is a real calendar day written yyyy-mm-dd.
 */
import { isRef } from '../format';
import type { CellValue, Kind, KindField, RecordDetail, SaveFields } from '../types';

/** The longest text a form accepts, in characters (after trimming). */
export const MAX_TEXT = 200;

/** The largest amount the server stores: 10^13 (hundredths in a 64-bit integer, with room). */
export const MAX_AMOUNT = 10_000_000_000_000;

/**
 * A form control's value: text, status and date as strings ("" when empty); a reference
 * as the record id (null for none); money and quantities as a number, or a string while
 * empty or half-typed (what NumberInput reports).
 */
export type FormValue = string | number | null;

/** Field name → control value, for every field of the kind. */
export type FormValues = Record<string, FormValue>;

/** Field name → the problem with its value. */
export type FieldErrors = Record<string, string>;

const CONTROL = /[\u0000-\u001f]/; // eslint-disable-line no-control-regex
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A record value (as a view or a 409's `current` shows it) as a control value. */
export function formValueOf(field: KindField, value: CellValue): FormValue {
  switch (field.type) {
    case 'reference':
      return isRef(value) ? value.id : typeof value === 'number' ? value : null;
    case 'money':
    case 'quantity':
      return typeof value === 'number' ? value : '';
    default:
      return value === null || value === undefined ? '' : String(value);
  }
}

/** The values of a kind's fields: from `values` (field name → record value), else empty. */
export function formValues(kind: Kind, values: Record<string, CellValue> = {}): FormValues {
  return Object.fromEntries(kind.fields.map((f) => [f.name, formValueOf(f, values[f.name])]));
}

/** A record view's values of its form fields (its "Summary" group, by field name). */
export function recordValues(record: RecordDetail): Record<string, CellValue> {
  const out: Record<string, CellValue> = {};
  for (const group of record.groups) for (const field of group.fields) if (!(field.name in out)) out[field.name] = field.value;
  return out;
}

/** A money or quantity control value as a number: null when empty, NaN when not a number. */
function amountOf(value: FormValue): number | null {
  if (typeof value === 'number') return value;
  if (value === null || value.trim() === '') return null;
  return Number(value.replace(/,/g, ''));
}

/** A text-like control value, trimmed as the server trims it. */
function textOf(value: FormValue): string {
  return value === null ? '' : String(value).trim();
}

function isRealDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The problem with one field's value, in the server's words, or null when it is valid. */
export function fieldError(field: KindField, value: FormValue): string | null {
  const required = `${field.label} is required.`;
  switch (field.type) {
    case 'reference':
      return field.required && (value === null || value === '' || value === 0) ? required : null;
    case 'money':
    case 'quantity': {
      const n = amountOf(value);
      if (n === null) return field.required ? required : null;
      if (!Number.isFinite(n)) return 'Enter a number.';
      if (Math.abs(n * 100 - Math.round(n * 100)) > 1e-6) return 'Use at most two decimals.';
      if (n < 0 || Math.round(n * 100) > MAX_AMOUNT * 100) return 'Enter an amount from 0 to 10,000,000,000,000.';
      return null;
    }
  }
  const text = textOf(value);
  if (CONTROL.test(text)) return 'Remove the control characters.';
  if ([...text].length > MAX_TEXT) return `Keep it under ${MAX_TEXT + 1} characters.`;
  if (text === '') return field.required ? required : null;
  if (field.type === 'status' && field.choices && !field.choices.includes(text)) return `Choose one of: ${field.choices.join(', ')}.`;
  if (field.type === 'date' && !isRealDate(text)) return 'Enter a date as yyyy-mm-dd.';
  return null;
}

/** Every field's problem; empty when the form may be sent. */
export function validate(kind: Kind, values: FormValues): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of kind.fields) {
    const problem = fieldError(field, values[field.name] ?? null);
    if (problem) errors[field.name] = problem;
  }
  return errors;
}

/** One field's value as a save sends it (see {@link SaveFields}). */
export function saveValueOf(field: KindField, value: FormValue): string | number | null {
  switch (field.type) {
    case 'reference':
      return typeof value === 'number' && value > 0 ? value : null;
    case 'money':
    case 'quantity':
      return amountOf(value);
    default:
      return textOf(value);
  }
}

/** The fields a save sends: every field of the form. */
export function saveFields(kind: Kind, values: FormValues): SaveFields {
  return Object.fromEntries(kind.fields.map((f) => [f.name, saveValueOf(f, values[f.name] ?? null)]));
}

/** Whether two control values of a field mean the same saved value. */
export function sameValue(field: KindField, a: FormValue, b: FormValue): boolean {
  return Object.is(saveValueOf(field, a), saveValueOf(field, b));
}

/** Whether any field differs from `baseline` (the values the form opened with). */
export function isDirty(kind: Kind, values: FormValues, baseline: FormValues): boolean {
  return kind.fields.some((f) => !sameValue(f, values[f.name] ?? null, baseline[f.name] ?? null));
}
