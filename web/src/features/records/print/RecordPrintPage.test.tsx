import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet, type RouteObject } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordRoutes } from '../routes';
import { mergeRouteMeta } from '../../../lib/meta';
import { useDocumentTitle } from '../../../lib/title';
import { useSessionStore } from '../../../lib/session/store';
import { customerKind, invoiceKind, invoiceLines, invoiceRecord, registry } from '../kinds.fixture';
import { fakeApi, json, problem, renderRoutes, signIn, type FakeApi } from '../testing';
import { printLayout } from './RecordPrintPage';

function TitleRoot() {
  useDocumentTitle(undefined);
  return <Outlet />;
}

const routes: RouteObject[] = [{ Component: TitleRoot, children: [recordRoutes] }];

beforeAll(async () => {
  await Promise.all([import('../KindPages'), import('./RecordPrintPage')]);
});

let api: FakeApi;

beforeEach(() => {
  signIn();
  api = fakeApi();
  api.on('GET /kinds', () => json({ data: registry }));
  api.on('GET /netsuite/portal-record', (url) => {
    if (url.searchParams.get('id') !== '77') return problem(404, 'No such record.');
    return json({ data: url.searchParams.get('tab') === 'item' ? invoiceLines : invoiceRecord });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

describe('the printable invoice', () => {
  it('lays the invoice out as a document: kind and number, dates and terms, parties, lines with their total, amounts', async () => {
    renderRoutes(routes, '/invoice/view/print?id=77');
    const sheet = await screen.findByTestId('print-sheet');
    expect(within(sheet).getByRole('heading', { level: 1, name: 'Invoice' })).toBeInTheDocument();
    expect(within(sheet).getByText('INV-000077')).toBeInTheDocument();
    const dd = (label: string) => within(sheet).getByText(label, { selector: 'dt' }).nextElementSibling;
    expect(dd('Invoice date')).toHaveTextContent(/^Jan 15, 2026$/);
    expect(dd('Due date')).toHaveTextContent(/^Feb 14, 2026$/);
    expect(dd('Terms')).toHaveTextContent(/^Net 30$/);
    expect(dd('Client')).toHaveTextContent(/^Acme Water$/);
    expect(dd('Project')).toHaveTextContent(/^Wetland restoration$/);
    expect(dd('Amount remaining')).toHaveTextContent(/^€1,250\.50$/);
    expect(within(sheet).getByText('Monitoring, Wetland restoration')).toBeInTheDocument();
    const lines = await within(sheet).findByRole('table', { name: 'Line items' });
    expect(within(lines).getByRole('rowheader', { name: 'Total' }).nextElementSibling).toHaveTextContent(/^€1,250\.50$/);
    await waitFor(() => expect(document.title).toBe('Monitoring, Wetland restoration · Invoice · Portico'));
  });

  it('puts the client’s address under its name, read from the client’s record', async () => {
    const clients = { ...customerKind, address: 'defaultaddress', fields: [...customerKind.fields, { name: 'defaultaddress', label: 'Address', column: 'fields.defaultaddress', type: 'text' as const, readOnly: true }] };
    api.on('GET /kinds', () => json({ data: registry.map((k) => (k.name === 'customer' ? clients : k)) }));
    api.on('GET /netsuite/portal-record', (url) => {
      if (url.searchParams.get('type') === 'customer' && url.searchParams.get('id') === '7') {
        return json({
          data: {
            id: 7,
            type: 'customer',
            title: 'Acme Water',
            code: 'C-7',
            status: '',
            erpUrl: null,
            groups: [{ label: 'Summary', fields: [{ name: 'defaultaddress', label: 'Address', type: 'text', value: '1 River Road\nSpringfield, OR 97477' }] }],
          },
        });
      }
      if (url.searchParams.get('id') !== '77') return problem(404, 'No such record.');
      return json({ data: url.searchParams.get('tab') === 'item' ? invoiceLines : invoiceRecord });
    });
    renderRoutes(routes, '/invoice/view/print?id=77');
    const sheet = await screen.findByTestId('print-sheet');
    const client = within(sheet).getByText('Client', { selector: 'dt' }).nextElementSibling as HTMLElement;
    const address = await within(client).findByText(/1 River Road/);
    expect(address.tagName).toBe('ADDRESS');
    expect(address.textContent).toBe('1 River Road\nSpringfield, OR 97477');
  });

  it('prints from its button and leads back to the invoice', async () => {
    const user = userEvent.setup();
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderRoutes(routes, '/invoice/view/print?id=77');
    await user.click(await screen.findByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
    expect(screen.getByRole('link', { name: 'Back to the invoice' })).toHaveAttribute('href', '/invoice/view?id=77');
  });

  it('is a page without the navbar', () => {
    const print = recordRoutes.children!.find((r) => r.path === 'view/print')!;
    expect(mergeRouteMeta([{ handle: { showNavbar: true } }, { handle: print.handle }])).toMatchObject({ showNavbar: false, isView: true });
  });

  it('puts references with the parties, amounts under the lines, other values beside the title', () => {
    const layout = printLayout(invoiceKind, invoiceRecord);
    const names = (entries: { field: { name: string } }[]) => entries.map((e) => e.field.name);
    expect(names(layout.facts)).toEqual(['status', 'trandate', 'duedate', 'terms']);
    expect(names(layout.parties)).toEqual(['entity', 'job']);
    expect(names(layout.amounts)).toEqual(['total', 'amountremaining']);
  });
});
