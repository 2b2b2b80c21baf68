/**
 * The create/edit form's one schema: how a kind's fields (`GET /api/v1/kinds`) become form
 * values, which values are valid, and what a save sends. The rules and their messages are
 * the server's (internal/records/form.go), so the form catches mistakes before the round
 * trip and the server's answer reads the same when it catches one itself:
 *
 * - a form has every field of the kind; a read-only field (an id or number the ERP
 *   assigns, a balance) is shown on edit, left out on create, and never sent;
 * - a create sends every field a user may set; an edit only those changed, and checks only
 *   those (what the record holds already is not the user's to correct);
 * - a required field needs a value;
 * - text (also status, date, email, phone and web address) is trimmed, then at most
 *   {@link MAX_TEXT} characters and free of control characters and of hidden format
 *   characters ({@link hasHiddenFormat});
 * - a status is one of the field's choices;
 * - money and quantities are numbers from 0 with at most two decimals; a percentage is
 *   from 0 to 100 with at most two decimals; a number is any number of at most 10^15;
 * - a date is a real calendar day written yyyy-mm-dd;
 * - an email is one plain address, a phone number has 7 to 15 digits, a web address
 *   starts with http:// or https://.
 */
import { isRef } from '../format';
import type { CellValue, Kind, KindField, RecordDetail, SaveFields } from '../types';

/** The longest text a form accepts, in characters (after trimming). */
export const MAX_TEXT = 200;

/** The largest amount the server stores: 10^13 (hundredths in a 64-bit integer, with room). */
export const MAX_AMOUNT = 10_000_000_000_000;

/** The largest number (in size) a number field takes. */
export const MAX_NUMBER = 1_000_000_000_000_000;

/**
 * A form control's value: text, status, date, email, phone and web address as strings (""
 * when empty); a reference as the record id (null for none); numbers (money, quantities,
 * percentages, plain numbers) as a number, or a string while empty or half-typed (what
 * NumberInput reports); a yes/no field as a boolean.
 */
export type FormValue = string | number | boolean | null;

/** Field name → control value, for every field of the kind. */
export type FormValues = Record<string, FormValue>;

/** Field name → the problem with its value. */
export type FieldErrors = Record<string, string>;

const CONTROL = /[\u0000-\u001f]/; // eslint-disable-line no-control-regex
const FORMAT = /^\p{Cf}$/u;
const NOT_IN_WORD = /^[\p{White_Space}\p{Cc}\p{Cf}]$/u;

/**
 * Whether a line of text holds a format character the server refuses in one (its
 * portal.HasHiddenFormat): any of Unicode category Cf — bidi controls, direction marks,
 * zero-width spaces, byte-order marks, soft hyphens — except a zero-width non-joiner or
 * joiner inside a word, where Persian, the Indic scripts and emoji need them.
 */
export function hasHiddenFormat(text: string): boolean {
  const chars = [...text];
  return chars.some((c, i) => {
    if (!FORMAT.test(c)) return false;
    const joiner = c === '\u200c' || c === '\u200d';
    // Beyond either end is no word: a space stands in.
    return !(joiner && !NOT_IN_WORD.test(chars[i - 1] ?? ' ') && !NOT_IN_WORD.test(chars[i + 1] ?? ' '));
  });
}
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// One plain address, local@domain with a dot in the domain: the server's net/mail check,
// as far as a form needs it.
const EMAIL = /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[^\s@<>()",;:\\[\].]+$/;
const PHONE = /^\+?[0-9(][0-9 ().-]*[0-9](\s*(x|ext\.?)\s*[0-9]{1,6})?$/i;

/** Whether `type` is one of the numeric field types (a NumberInput). */
export function isNumberType(type: KindField['type']): boolean {
  return type === 'money' || type === 'quantity' || type === 'percent' || type === 'number';
}

/** The fields a form has: on create, those a user may set; on edit, every field. */
export function formFields(kind: Kind, creating: boolean): KindField[] {
  return creating ? kind.fields.filter((f) => !f.readOnly) : kind.fields;
}

/** Whether a user may set the field: any but a system one (`readOnly`), which a save never sends. */
export function isEditable(field: KindField): boolean {
  return !field.readOnly;
}

/** The fields a save sends: those a user may set. */
function editableFields(kind: Kind): KindField[] {
  return kind.fields.filter(isEditable);
}

/** A record value (as a view or a 409's `current` shows it) as a control value. */
export function formValueOf(field: KindField, value: CellValue): FormValue {
  switch (field.type) {
    case 'reference':
      return isRef(value) ? value.id : typeof value === 'number' ? value : null;
    case 'boolean':
      return value === true || value === 'true';
    default:
      if (isNumberType(field.type)) return typeof value === 'number' ? value : '';
      return value === null || value === undefined ? '' : String(value);
  }
}

/** The values of a kind's fields: from `values` (field name → record value), else empty. */
export function formValues(kind: Kind, values: Record<string, CellValue> = {}): FormValues {
  return Object.fromEntries(kind.fields.map((f) => [f.name, formValueOf(f, values[f.name])]));
}

/** A record view's values of its form fields (its field groups, by field name). */
export function recordValues(record: RecordDetail): Record<string, CellValue> {
  const out: Record<string, CellValue> = {};
  for (const group of record.groups) for (const field of group.fields) if (!(field.name in out)) out[field.name] = field.value;
  return out;
}

/** A numeric control value as a number: null when empty, NaN when not a number. */
function numberOf(value: FormValue): number | null {
  if (typeof value === 'number') return value;
  if (value === null || typeof value === 'boolean' || value.trim() === '') return null;
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

function hasTwoDecimalsAtMost(n: number): boolean {
  return Math.abs(n * 100 - Math.round(n * 100)) <= 1e-6;
}

function isPhone(text: string): boolean {
  if (!PHONE.test(text)) return false;
  const digits = (text.toLowerCase().split('x')[0] ?? '').replace(/[^0-9]/g, '').length;
  return digits >= 7 && digits <= 15;
}

function isWebAddress(text: string): boolean {
  if (/\s/.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.host !== '';
  } catch {
    return false;
  }
}

/** The problem with a numeric field's value, or null. */
function numberError(field: KindField, value: FormValue): string | null {
  const n = numberOf(value);
  if (n === null) return field.required ? `${field.label} is required.` : null;
  if (!Number.isFinite(n)) return 'Enter a number.';
  switch (field.type) {
    case 'percent':
      if (!hasTwoDecimalsAtMost(n)) return 'Use at most two decimals.';
      return n < 0 || n > 100 ? 'Enter a percentage from 0 to 100.' : null;
    case 'number':
      return Math.abs(n) > MAX_NUMBER ? 'Enter a number from -1,000,000,000,000,000 to 1,000,000,000,000,000.' : null;
  }
  if (!hasTwoDecimalsAtMost(n)) return 'Use at most two decimals.';
  if (n < 0 || Math.round(n * 100) > MAX_AMOUNT * 100) return 'Enter an amount from 0 to 10,000,000,000,000.';
  return null;
}

/** The problem with one field's value, in the server's words, or null when it is valid. */
export function fieldError(field: KindField, value: FormValue): string | null {
  if (field.readOnly) return null; // never sent
  const required = `${field.label} is required.`;
  if (field.type === 'reference') return field.required && (value === null || value === '' || value === 0) ? required : null;
  if (field.type === 'boolean') return null;
  if (isNumberType(field.type)) return numberError(field, value);
  const text = textOf(value);
  if (CONTROL.test(text)) return 'Remove the control characters.';
  // The raw value, as the server checks it before trimming (trim() drops a byte-order mark).
  if (typeof value === 'string' && hasHiddenFormat(value)) {
    return 'Remove the invisible formatting characters (such as direction marks or zero-width spaces): type the text again.';
  }
  if ([...text].length > MAX_TEXT) return `Keep it under ${MAX_TEXT + 1} characters.`;
  if (text === '') return field.required ? required : null;
  switch (field.type) {
    case 'status':
      return field.choices && !field.choices.includes(text) ? `Choose one of: ${field.choices.join(', ')}.` : null;
    case 'date':
      return isRealDate(text) ? null : 'Enter a date as yyyy-mm-dd.';
    case 'email':
      return EMAIL.test(text) ? null : 'Enter an email address such as name@example.com.';
    case 'phone':
      return isPhone(text) ? null : 'Enter a phone number of 7 to 15 digits, such as +1 919 555 0100.';
    case 'url':
      return isWebAddress(text) ? null : 'Enter a web address starting with https:// or http://.';
  }
  return null;
}

/**
 * Every field's problem; empty when the form may be sent. With `reference` (an edit: the
 * values it is compared with), only the fields that differ from it: a value the record has
 * already is the record's, whatever it is (the ERP may hold a longer text than a form takes).
 */
export function validate(kind: Kind, values: FormValues, reference?: FormValues): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of editableFields(kind)) {
    const value = values[field.name] ?? null;
    if (reference && sameValue(field, value, reference[field.name] ?? null)) continue;
    const problem = fieldError(field, value);
    if (problem) errors[field.name] = problem;
  }
  return errors;
}

/** One field's value as a save sends it (see {@link SaveFields}). */
export function saveValueOf(field: KindField, value: FormValue): string | number | boolean | null {
  if (field.type === 'reference') return typeof value === 'number' && value > 0 ? value : null;
  if (field.type === 'boolean') return value === true;
  if (isNumberType(field.type)) return numberOf(value);
  return textOf(value);
}

/** The fields a save sends: every field a user may set, none of the system's. */
export function saveFields(kind: Kind, values: FormValues): SaveFields {
  return Object.fromEntries(editableFields(kind).map((f) => [f.name, saveValueOf(f, values[f.name] ?? null)]));
}

/**
 * The fields an edit sends: those a user may set whose value differs from `reference` (the
 * values the form opened with, or after a 409 the record's values now), so an edit never
 * writes back what someone else changed meanwhile in another field.
 */
export function changedFields(kind: Kind, values: FormValues, reference: FormValues): SaveFields {
  return Object.fromEntries(
    editableFields(kind)
      .filter((f) => !sameValue(f, values[f.name] ?? null, reference[f.name] ?? null))
      .map((f) => [f.name, saveValueOf(f, values[f.name] ?? null)]),
  );
}

/** Whether two control values of a field mean the same saved value. */
export function sameValue(field: KindField, a: FormValue, b: FormValue): boolean {
  return Object.is(saveValueOf(field, a), saveValueOf(field, b));
}

/** Whether any field a user may set differs from `baseline` (the values the form opened with). */
export function isDirty(kind: Kind, values: FormValues, baseline: FormValues): boolean {
  return editableFields(kind).some((f) => !sameValue(f, values[f.name] ?? null, baseline[f.name] ?? null));
}
