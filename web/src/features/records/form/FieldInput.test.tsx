import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import type { KindField } from '../types';
import { FieldInput } from './FieldInput';

const fee: KindField = { name: 'fee', label: 'Fee', column: 'amount', type: 'money', currency: 'EUR' };

function show(currency: string | undefined) {
  renderWithProviders(<FieldInput field={fee} value={1234.5} onChange={() => {}} currency={currency} />);
  return screen.getByLabelText('Fee');
}

describe('a money input', () => {
  it('writes the amount’s own currency around it, as the user’s locale does', () => {
    expect(show('GBP')).toHaveValue('£1,234.5');
  });

  it('is the bare number when the currency is not known (records of several currencies)', () => {
    expect(show(undefined)).toHaveValue('1,234.5');
  });
});
