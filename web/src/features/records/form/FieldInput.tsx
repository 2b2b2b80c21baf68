import { Checkbox, NativeSelect, NumberInput, TextInput } from '@mantine/core';
import type { FocusEvent } from 'react';
import { currencyAffix } from '../format';
import { RecordLookup } from '../RecordLookup';
import type { KindField } from '../types';
import type { FormValue } from './schema';

export interface FieldInputProps {
  field: KindField;
  value: FormValue;
  onChange: (value: FormValue) => void;
  /** The control lost focus (the form checks the field then); `event.relatedTarget` is where the focus went. */
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
  /** The field's problem, shown under it and announced with it. */
  error?: string;
  /** A note under the label (e.g. the value someone else saved meanwhile). */
  description?: string;
  disabled?: boolean;
  /** For a read-only (system) field: its value as the record page shows it. */
  shown?: string;
  /**
   * Money: the currency the amount is in (the record's, else the field's base currency),
   * whose symbol goes around the number as the user's locale writes it. None (a bulk edit
   * of records that may be in different currencies): the bare number.
   */
  currency?: string;
}

/** How each kind of number is typed: decimals, sign, a unit around it (money: its currency's, see `currency`). */
const NUMBER_FORMATS = {
  money: { decimalScale: 2, allowNegative: false, min: 0 },
  quantity: { decimalScale: 2, allowNegative: false, min: 0 },
  percent: { decimalScale: 2, allowNegative: false, min: 0, max: 100, suffix: ' %' },
  number: { decimalScale: 6, allowNegative: true },
} as const;

/**
 * The control of one form field, by its type: text → text box; status → a select of its
 * choices; reference → the record lookup; money, quantity, percent and number → a number
 * box (two decimals and not negative for amounts; 0–100 for a percentage); date → the
 * browser's date box (yyyy-mm-dd); yes/no → a checkbox; email, phone and web address →
 * text boxes of those input types (the right keyboard on a phone). Each is labelled with
 * the field's label (its accessible name) and marked when required. A read-only (system)
 * field is a read-only text box with its value as the record page shows it, so it can be
 * read and copied but not changed.
 */
export function FieldInput({ field, value, onChange, onBlur, error, description, disabled, shown, currency }: FieldInputProps) {
  const common = { label: field.label, required: field.required, error, description, disabled, onBlur };
  if (field.readOnly) {
    return <TextInput label={field.label} description={description ?? 'Set by the system'} value={shown ?? ''} readOnly variant="filled" />;
  }
  const text = (type: 'text' | 'date' | 'email' | 'tel' | 'url', inputMode?: 'email' | 'tel' | 'url') => (
    <TextInput
      {...common}
      type={type}
      inputMode={inputMode}
      autoComplete="off"
      value={value === null || typeof value === 'boolean' ? '' : String(value)}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
  switch (field.type) {
    case 'status':
      return (
        // The browser's own select: accessible and keyboard-usable as it is, and light
        // enough to keep the combobox code off pages that do not need it.
        <NativeSelect
          {...common}
          data={[{ value: '', label: 'Choose…' }, ...(field.choices ?? [])]}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
    case 'reference':
      return (
        <RecordLookup
          label={field.label}
          kind={field.ref ?? ''}
          value={typeof value === 'number' ? value : null}
          onChange={(id) => onChange(id)}
          error={error}
          required={field.required}
          description={description}
          disabled={disabled}
        />
      );
    case 'money':
    case 'quantity':
    case 'percent':
    case 'number':
      return (
        <NumberInput
          {...common}
          {...NUMBER_FORMATS[field.type]}
          {...(field.type === 'money' ? currencyAffix(currency) : {})}
          value={typeof value === 'boolean' ? '' : (value ?? '')}
          onChange={onChange}
          thousandSeparator=","
          hideControls
          // A value out of range is the user's to correct, with the form's message: never
          // silently changed on blur.
          clampBehavior="none"
          inputMode="decimal"
        />
      );
    case 'boolean':
      return (
        <Checkbox
          label={field.label}
          description={description}
          error={error}
          disabled={disabled}
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
          onBlur={onBlur}
          mt="lg"
        />
      );
    case 'date':
      return text('date');
    case 'email':
      return text('email', 'email');
    case 'phone':
      return text('tel', 'tel');
    case 'url':
      return text('url', 'url');
    default:
      return text('text');
  }
}
