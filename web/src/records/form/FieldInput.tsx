import { NativeSelect, NumberInput, TextInput } from '@mantine/core';
import { RecordLookup } from '../RecordLookup';
import type { KindField } from '../types';
import type { FormValue } from './schema';

export interface FieldInputProps {
  field: KindField;
  value: FormValue;
  onChange: (value: FormValue) => void;
  /** The control lost focus (the form checks the field then). */
  onBlur?: () => void;
  /** The field's problem, shown under it and announced with it. */
  error?: string;
  /** A note under the label (e.g. the value someone else saved meanwhile). */
  description?: string;
  disabled?: boolean;
}

/**
 * The control of one form field, by its type: text → text box, status → a select of its
 * choices, reference → the record lookup, money and quantity → a number box (two
 * decimals, not negative), date → the browser's date box (yyyy-mm-dd). Each is labelled
 * with the field's label (its accessible name) and marked when required.
 */
export function FieldInput({ field, value, onChange, onBlur, error, description, disabled }: FieldInputProps) {
  const common = { label: field.label, required: field.required, error, description, disabled, onBlur };
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
      return (
        <NumberInput
          {...common}
          value={value ?? ''}
          onChange={onChange}
          decimalScale={2}
          allowNegative={false}
          min={0}
          thousandSeparator=","
          prefix={field.type === 'money' ? '$' : undefined}
          hideControls
          inputMode="decimal"
        />
      );
    case 'date':
      return <TextInput {...common} type="date" value={value === null ? '' : String(value)} onChange={(event) => onChange(event.currentTarget.value)} />;
    default:
      return <TextInput {...common} value={value === null ? '' : String(value)} onChange={(event) => onChange(event.currentTarget.value)} />;
  }
}
