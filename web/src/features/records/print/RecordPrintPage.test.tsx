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
import type { CompanyProfile } from './company';
import { buildPdf } from './pdf';
import type { PrintDocument } from './printDocument';
import { printLayout } from './printLayout';

// The PDF's drawing is pdf.test.ts's; here, what the page hands it.
vi.mock('./pdf', () => ({ buildPdf: vi.fn(() => new Blob(['%PDF-1.3'], { type: 'application/pdf' })) }));

const company: CompanyProfile = {
  name: 'Riverbend Ecological Services',
  legalName: 'Riverbend Ecological Services, LLC',
  address: { lines: ['2140 Riverbend Way', 'Suite 200'], city: 'Eugene', region: 'OR', postalCode: '97401', country: 'US' },
  phone: '(541) 555-0142',
  email: 'accounts@riverbend-eco.example',
  taxId: '93-4416207',
};

/** The registry with clients that keep their address (Kind.address), and that client's record. */
function clientsWithAddress(api: FakeApi) {
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
}

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
  api.on('GET /company', () => json({ data: company }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
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
    clientsWithAddress(api);
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

  it('heads the sheet with the company’s letterhead: its legal name, address and contact lines, above the title', async () => {
    renderRoutes(routes, '/invoice/view/print?id=77');
    const sheet = await screen.findByTestId('print-sheet');
    const head = await within(sheet).findByTestId('letterhead');
    expect(within(head).getByText('Riverbend Ecological Services, LLC')).toBeInTheDocument();
    const address = within(head).getByText(/2140 Riverbend Way/);
    expect(address.tagName).toBe('ADDRESS');
    expect(address.textContent).toBe('2140 Riverbend Way\nSuite 200\nEugene, OR 97401\nUnited States');
    expect(head).toHaveTextContent('Phone (541) 555-0142');
    expect(head).toHaveTextContent('accounts@riverbend-eco.example');
    expect(head).toHaveTextContent('Tax ID 93-4416207');
    const title = within(sheet).getByRole('heading', { level: 1, name: 'Invoice' });
    expect(head.compareDocumentPosition(title) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('goes without a letterhead when the company’s profile cannot be read', async () => {
    api.on('GET /company', () => problem(503, 'Unavailable.'));
    renderRoutes(routes, '/invoice/view/print?id=77');
    const sheet = await screen.findByTestId('print-sheet');
    await within(sheet).findByRole('table', { name: 'Line items' });
    expect(within(sheet).queryByTestId('letterhead')).toBeNull();
  });

  it('downloads the sheet as a PDF: the document as text, named after the invoice', async () => {
    const user = userEvent.setup();
    clientsWithAddress(api);
    vi.mocked(buildPdf).mockClear();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:pdf'), revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderRoutes(routes, '/invoice/view/print?id=77');
    await within(await screen.findByTestId('print-sheet')).findByText(/1 River Road/);
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(click).toHaveBeenCalledOnce());
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('Invoice INV-000077.pdf');
    expect(buildPdf).toHaveBeenCalledOnce();
    const [document, country] = vi.mocked(buildPdf).mock.calls[0]! as [PrintDocument, string];
    expect(country).toBe('US');
    expect(document).toMatchObject({
      filename: 'Invoice INV-000077.pdf',
      title: 'Invoice',
      number: 'INV-000077',
      subject: 'Monitoring, Wetland restoration',
      letterhead: { name: 'Riverbend Ecological Services, LLC', address: ['2140 Riverbend Way', 'Suite 200', 'Eugene, OR 97401', 'United States'] },
    });
    expect(document.parties[0]).toEqual({ label: 'Client', text: 'Acme Water', address: ['1 River Road', 'Springfield, OR 97477'] });
    expect(document.facts).toContainEqual({ label: 'Due date', text: 'Feb 14, 2026' });
    expect(document.amounts).toContainEqual({ label: 'Amount remaining', text: '€1,250.50' });
    expect(document.lines).toEqual([
      {
        title: 'Line items',
        columns: [
          { label: 'Item', numeric: false },
          { label: 'Description', numeric: false },
          { label: 'Quantity', numeric: true },
          { label: 'Rate', numeric: true },
          { label: 'Amount', numeric: true },
        ],
        rows: [
          ['Monitoring', 'Quarterly monitoring visit', '2', '€400.25', '€800.50'],
          ['Design', 'Site plan revision', '1', '€450.00', '€450.00'],
        ],
        total: { span: 4, cells: ['€1,250.50'] },
      },
    ]);
    expect(screen.getByRole('button', { name: 'Download PDF' })).not.toHaveAttribute('aria-busy', 'true');
  });

  it('says so when the PDF cannot be made, and tries again', async () => {
    const user = userEvent.setup();
    vi.mocked(buildPdf).mockImplementationOnce(() => {
      throw new Error('Out of memory.');
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:pdf'), revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderRoutes(routes, '/invoice/view/print?id=77');
    await user.click(await screen.findByRole('button', { name: 'Download PDF' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The PDF could not be made');
    expect(alert).toHaveTextContent('Out of memory.');
    expect(click).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(click).toHaveBeenCalledOnce());
    expect(screen.queryByRole('alert')).toBeNull();
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
