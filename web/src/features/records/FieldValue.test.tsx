import { screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { FieldValue } from './FieldValue';
import { employeeKind } from './kinds.fixture';
import type { FieldValueProps } from './FieldValue';

function show(props: FieldValueProps) {
  const router = createMemoryRouter([
    {
      path: '/',
      Component: () => (
        <span data-testid="value">
          <FieldValue {...props} />
        </span>
      ),
    },
  ]);
  renderWithProviders(<RouterProvider router={router} />);
  return screen.getByTestId('value');
}

describe('FieldValue', () => {
  it('links a reference to its record by name', () => {
    show({ value: { id: 2, refName: 'Pete Manager' }, type: 'reference', refKind: employeeKind });
    expect(screen.getByRole('link', { name: 'Pete Manager' })).toHaveAttribute('href', '/employee/view?id=2');
  });

  it('shows a reference of a kind the role does not see by name, unlinked, never as #id', () => {
    const container = show({ value: { id: 2, refName: 'Pete Manager' }, type: 'reference' });
    expect(screen.queryByRole('link')).toBeNull();
    expect(container).toHaveTextContent(/^Pete Manager$/);
  });

  it('makes email, phone and web addresses links', () => {
    show({ value: 'ap@acme.example', type: 'email' });
    expect(screen.getByRole('link', { name: 'ap@acme.example' })).toHaveAttribute('href', 'mailto:ap@acme.example');
  });

  it('makes a phone number a tel: link', () => {
    show({ value: '+1 555 010 2030', type: 'phone' });
    expect(screen.getByRole('link', { name: '+1 555 010 2030' })).toHaveAttribute('href', 'tel:+15550102030');
  });

  it('opens a web address in a new tab', () => {
    show({ value: 'https://acme.example', type: 'url' });
    const link = screen.getByRole('link', { name: 'https://acme.example' });
    expect(link).toHaveAttribute('href', 'https://acme.example/');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('never links an unsafe address', () => {
    const container = show({ value: 'javascript:alert(1)', type: 'url' });
    expect(screen.queryByRole('link')).toBeNull();
    expect(container).toHaveTextContent('javascript:alert(1)');
  });

  it('formats money in its currency', () => {
    expect(show({ value: 1250.5, type: 'money', currency: 'EUR' })).toHaveTextContent(/^€1,250\.50$/);
  });

  it('formats percent', () => {
    expect(show({ value: 95, type: 'percent' })).toHaveTextContent(/^95%$/);
  });

  it('formats a boolean as Yes or No', () => {
    expect(show({ value: false, type: 'boolean' })).toHaveTextContent(/^No$/);
  });

  it('shows a status as a badge and no value as a dash', () => {
    const container = show({ value: 'Active', type: 'status', choices: ['Active'] });
    expect(container.querySelector('.mantine-Badge-root')).toHaveTextContent(/^Active$/);
  });

  it('shows no value as a dimmed dash', () => {
    expect(show({ value: null, type: 'money' })).toHaveTextContent(/^—$/);
  });
});
