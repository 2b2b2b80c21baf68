import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '../../lib/session/store';
import type { SearchResult } from './searchApi';
import { RecordLookup } from './RecordLookup';
import { fakeApi, json, problem, renderRoutes, signIn, type FakeApi } from './testing';

const acme: SearchResult = { name: 'Acme Water', domain: '/customer/view?id=7', type: 'customer', id: 7, detail: 'Client · C-0007' };
const acorn: SearchResult = { name: 'Acorn Homes', domain: '/customer/view?id=8', type: 'customer', id: 8, detail: 'Client · C-0008' };

let api: FakeApi;
const onChange = vi.fn();

/** The lookup with its value held the way a form holds it. */
function Harness({ initial = null, error }: { initial?: number | null; error?: string }) {
  const [value, setValue] = useState<number | null>(initial);
  return (
    <RecordLookup
      label="Client"
      kind="customer"
      value={value}
      error={error}
      required
      onChange={(id, name) => {
        setValue(id);
        onChange(id, name);
      }}
    />
  );
}

function renderLookup(props: { initial?: number | null; error?: string } = {}) {
  return renderRoutes([{ path: '/', Component: () => <Harness {...props} /> }], '/');
}

const searchCalls = () => api.calls.filter((c) => c.path === '/netsuite/portal' && c.params.get('method') === 'search');

beforeEach(() => {
  signIn();
  onChange.mockReset();
  api = fakeApi();
  api.on('GET /netsuite/portal', (url) => {
    const text = url.searchParams.get('query')!.toLowerCase();
    return json({ data: [acme, acorn].filter((r) => r.name.toLowerCase().includes(text)) });
  });
  api.on('GET /netsuite/portal-record', (url) =>
    url.searchParams.get('id') === '7' ? json({ data: { id: 7, type: 'customer', title: 'Acme Water' } }) : problem(404, 'No such record.'),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

describe('RecordLookup', () => {
  it('is a labelled combobox that searches the kind from 3 characters, once typing pauses', async () => {
    const user = userEvent.setup();
    renderLookup();
    const box = await screen.findByRole('combobox', { name: 'Client' });
    expect(box).toBeRequired();
    await user.type(box, 'ac');
    expect(await screen.findByText('Type at least 3 characters of a name.')).toBeInTheDocument();
    await user.type(box, 'm');
    const list = await screen.findByRole('listbox', { name: 'Client: matching records' });
    expect(box).toHaveAttribute('aria-expanded', 'true');
    expect(await within(list).findByRole('option', { name: /Acme Water/ })).toHaveTextContent('Client · C-0007');
    expect(within(list).queryByRole('option', { name: /Acorn Homes/ })).toBeNull();
    // One search, narrowed to the kind.
    expect(searchCalls()).toHaveLength(1);
    expect(Object.fromEntries(searchCalls()[0]!.params)).toEqual({ method: 'search', query: 'acm', type: 'customer' });
  });

  it('searches once for quickly typed text', async () => {
    const user = userEvent.setup();
    renderLookup();
    await user.type(await screen.findByRole('combobox', { name: 'Client' }), 'acorn');
    await screen.findByRole('option', { name: /Acorn Homes/ });
    expect(searchCalls().map((c) => c.params.get('query'))).toEqual(['acorn']);
  });

  it('picks a result with the keyboard and shows its name', async () => {
    const user = userEvent.setup();
    renderLookup();
    const box = await screen.findByRole('combobox', { name: 'Client' });
    await user.type(box, 'acm');
    await screen.findByRole('option', { name: /Acme Water/ });
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenCalledWith(7, 'Acme Water');
    expect(box).toHaveValue('Acme Water');
    expect(screen.queryByRole('listbox')).toBeNull();
    // The name came with the pick: no record call.
    expect(api.calls.some((c) => c.path === '/netsuite/portal-record')).toBe(false);
  });

  it('closes its list on Escape and opens it again on ArrowDown', async () => {
    const user = userEvent.setup();
    renderLookup();
    const box = await screen.findByRole('combobox', { name: 'Client' });
    await user.type(box, 'acm');
    await screen.findByRole('option', { name: /Acme Water/ });
    await user.keyboard('{Escape}');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: /Acme Water/ }).id);
  });

  it('picks a result with a click', async () => {
    const user = userEvent.setup();
    renderLookup();
    await user.type(await screen.findByRole('combobox', { name: 'Client' }), 'acorn');
    await user.click(await screen.findByRole('option', { name: /Acorn Homes/ }));
    expect(onChange).toHaveBeenCalledWith(8, 'Acorn Homes');
  });

  it('shows the name of the record it starts with, asked of the server, else its id', async () => {
    renderLookup({ initial: 7 });
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Client' })).toHaveValue('Acme Water'));
  });

  it('shows #id when the record’s name cannot be had', async () => {
    renderLookup({ initial: 99 });
    const box = await screen.findByRole('combobox', { name: 'Client' });
    await waitFor(() => expect(api.calls.some((c) => c.path === '/netsuite/portal-record')).toBe(true));
    expect(box).toHaveValue('#99');
  });

  it('clears when emptied, and drops unpicked text on blur', async () => {
    const user = userEvent.setup();
    renderLookup({ initial: 7 });
    const box = await screen.findByRole('combobox', { name: 'Client' });
    await waitFor(() => expect(box).toHaveValue('Acme Water'));
    await user.type(box, 'x');
    await user.tab();
    expect(box).toHaveValue('Acme Water');
    expect(onChange).not.toHaveBeenCalled();
    await user.clear(box);
    expect(onChange).toHaveBeenCalledWith(null, '');
  });

  it('says when nothing matches and when the search fails', async () => {
    const user = userEvent.setup();
    renderLookup();
    const box = await screen.findByRole('combobox', { name: 'Client' });
    await user.type(box, 'zzz');
    expect(await screen.findByText('No Results')).toBeInTheDocument();
    api.on('GET /netsuite/portal', () => problem(503, 'Search is resting.'));
    await user.type(box, 'q');
    expect(await screen.findByText('The search failed: Search is resting.')).toBeInTheDocument();
  });

  it('shows its error with the input', async () => {
    renderLookup({ error: 'Pick a client.' });
    const box = await screen.findByRole('combobox', { name: 'Client' });
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveAccessibleDescription(/Pick a client\./);
  });
});
