import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet, type RouteObject } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordRoutes } from './routes';
import { useDocumentTitle } from '../../lib/title';
import { useSessionStore } from '../../lib/session/store';
import { recordTabs } from './kinds';
import { invoiceLines, invoiceRecord, permitRecord, projectRecord, registry } from './kinds.fixture';
import { fakeApi, json, problem, renderRoutes, signIn, type FakeApi } from './testing';
import type { RecordDetail } from './types';

/** The app's own record routes (one parameterised route for every kind), under a root that keeps the document title. */
function TitleRoot() {
  useDocumentTitle(undefined);
  return <Outlet />;
}

const routes: RouteObject[] = [{ Component: TitleRoot, children: [recordRoutes, { path: '/404', Component: () => <h1>Page not found</h1> }] }];

const records: Record<string, RecordDetail> = { 'project:42': projectRecord, 'invoice:77': invoiceRecord, 'customrecord_permit:5': permitRecord };

let api: FakeApi;

// The pages are lazy chunks: load them once, so no test waits on a cold import.
beforeAll(async () => {
  await Promise.all([import('./KindPages'), import('./RecordViewPage'), import('./RecordTabPage'), import('./print/RecordPrintPage')]);
});

beforeEach(() => {
  signIn();
  api = fakeApi();
  api.on('GET /kinds', () => json({ data: registry }));
  api.on('GET /netsuite/portal-record', (url) => {
    const tab = url.searchParams.get('tab');
    const record = records[`${url.searchParams.get('type')}:${url.searchParams.get('id')}`];
    if (!record) return problem(404, 'No such record.');
    if (tab === 'billing') {
      return json({
        data: {
          columns: [
            { name: 'name', label: 'Milestone', type: 'text', sortable: true },
            { name: 'custrecord_res_bil_amount', label: 'Amount', type: 'money', sortable: true },
          ],
          rows: [
            { id: 501, name: 'Phase 1', custrecord_res_bil_amount: 1000 },
            { id: 502, name: 'Phase 2', custrecord_res_bil_amount: 2500.25 },
          ],
          hasMore: false,
        },
      });
    }
    if (tab === 'notes') {
      return json({ data: { columns: [{ name: 'note', label: 'Note', type: 'text', sortable: false }], rows: [{ id: 1, note: 'Site visit booked' }] } });
    }
    if (tab === 'item' && record === invoiceRecord) return json({ data: invoiceLines });
    if (tab) return problem(404, `No "${tab}" tab.`);
    return json({ data: record });
  });
  api.on('GET /netsuite/portal-file', (url) =>
    url.searchParams.get('fileId')
      ? new Response('%PDF-1.4', { headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="site plan.pdf"' } })
      : json({ data: [{ id: 9, name: 'site plan.pdf', size: 20480, contentType: 'application/pdf', modified: '2024-05-01T10:00:00Z' }] }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

/** The text of the field labelled `label` in a definition list. */
function valueOf(container: HTMLElement, label: string): HTMLElement {
  const term = within(container).getByText(label, { selector: 'dt' });
  return term.nextElementSibling as HTMLElement;
}

describe('RecordViewPage: the header', () => {
  it('shows the title, number, status badge, key facts and the ERP link', async () => {
    renderRoutes(routes, '/project/view?id=42');
    expect(await screen.findByRole('heading', { level: 1, name: 'Wetland restoration' })).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Status' })).getByText('Active')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Projects' })).toHaveAttribute('href', '/project/list');
    expect(screen.getByText('/ PRJ-000042')).toBeInTheDocument();
    const facts = screen.getByLabelText('Key facts');
    expect(within(facts).getByRole('link', { name: 'Acme Water' })).toHaveAttribute('href', '/customer/view?id=7');
    expect(valueOf(facts, 'Contract value')).toHaveTextContent(/^\$98,000\.00$/);
    expect(valueOf(facts, 'Start date')).toHaveTextContent(/^Mar 7, 2024$/);
    const erp = screen.getByRole('link', { name: /Open in NetSuite/ });
    expect(erp).toHaveAttribute('href', projectRecord.erpUrl);
    expect(erp).toHaveAttribute('target', '_blank');
    expect(erp).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/project/edit?id=42');
    // A project has no line items: nothing to print.
    expect(screen.queryByRole('link', { name: 'Print' })).toBeNull();
  });

  it('titles the browser tab with the record’s name and kind', async () => {
    renderRoutes(routes, '/project/view?id=42');
    await waitFor(() => expect(document.title).toBe('Wetland restoration · Project · Portico'));
  });
});

describe('RecordViewPage: the fields', () => {
  it('labels every field from the registry, never with NetSuite’s ids', async () => {
    renderRoutes(routes, '/project/view?id=42');
    const groups = await screen.findByTestId('field-groups');
    expect(within(groups).getAllByRole('heading').map((h) => h.textContent)).toEqual(['Details', 'Amounts', 'Contact']);
    const text = document.body.textContent!;
    for (const raw of ['Huc', 'Percentcomplete', 'Projectmanager', 'custentity', 'Isinactive', 'Summary']) expect(text, raw).not.toContain(raw);
    expect(valueOf(groups, 'HUC')).toHaveTextContent('0301020304');
    expect(valueOf(groups, 'Projected end')).toHaveTextContent(/^Oct 1, 2026$/);
    expect(valueOf(groups, 'Inactive')).toHaveTextContent(/^No$/);
  });

  it('formats values by type: percent, quantities, references as links by name', async () => {
    renderRoutes(routes, '/project/view?id=42');
    const groups = await screen.findByTestId('field-groups');
    expect(valueOf(groups, '% complete')).toHaveTextContent(/^95%$/);
    expect(valueOf(groups, 'Acres')).toHaveTextContent(/^1\.20$/);
    expect(within(valueOf(groups, 'Project manager')).getByRole('link', { name: 'Pete Manager' })).toHaveAttribute('href', '/employee/view?id=2');
    // An account field of type url whose value is not a web address is shown, never linked.
    expect(valueOf(groups, 'Site map')).toHaveTextContent('javascript:alert(1)');
    expect(within(valueOf(groups, 'Site map')).queryByRole('link')).toBeNull();
    expect(document.body.textContent).not.toMatch(/#\d/);
  });

  it('does not repeat the header: the client is named once, and no related records repeat it', async () => {
    renderRoutes(routes, '/project/view?id=42');
    const groups = await screen.findByTestId('field-groups');
    expect(screen.getAllByText('Client', { selector: 'dt' })).toHaveLength(1);
    expect(screen.getAllByRole('link', { name: /Acme Water/ })).toHaveLength(1);
    for (const label of ['Project name', 'Project ID', 'Status', 'Contract value', 'Start date']) {
      expect(within(groups).queryByText(label, { selector: 'dt' }), label).toBeNull();
    }
    expect(screen.queryByRole('heading', { name: 'Related records' })).toBeNull();
  });

  it('keeps fields the registry does not declare under a closed “Other NetSuite fields”', async () => {
    renderRoutes(routes, '/project/view?id=42');
    const other = await screen.findByTestId('other-fields');
    expect(other.tagName).toBe('DETAILS');
    expect(other).not.toHaveAttribute('open');
    expect(within(other).getByText(/Other NetSuite fields/)).toBeInTheDocument();
    expect(valueOf(other, 'Latitude')).toHaveTextContent('34.123456');
    expect(valueOf(other, 'External id')).toHaveTextContent('legacy-42');
  });

  it('lists the tabs of the record, Details current', async () => {
    renderRoutes(routes, '/project/view?id=42');
    const tabs = await screen.findByRole('navigation', { name: 'Project sections' });
    expect(within(tabs).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Details', '/project/view?id=42'],
      ['Billing', '/project/view/billing?id=42'],
      ['Files', '/project/view/files?id=42'],
      ['Notes', '/project/view/notes?id=42'],
    ]);
    expect(within(tabs).getByRole('link', { name: 'Details' })).toHaveAttribute('aria-current', 'page');
  });
});

describe('RecordViewPage: a transaction’s line items', () => {
  it('shows the lines from the item sublist with formatted amounts and their total, in the record’s currency', async () => {
    // The invoice is in euros (its answer's `currency`); the tenant's base currency is USD.
    renderRoutes(routes, '/invoice/view?id=77');
    const table = await screen.findByRole('table', { name: 'Line items' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Item', 'Description', 'Quantity', 'Rate', 'Amount']);
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('MonitoringQuarterly monitoring visit2€400.25€800.50');
    expect(within(table).getByRole('rowheader', { name: 'Total' }).nextElementSibling).toHaveTextContent(/^€1,250\.50$/);
    // The lines show on the page; they are no tab of their own.
    const tabs = screen.getByRole('navigation', { name: 'Invoice sections' });
    expect(within(tabs).queryByRole('link', { name: 'Line items' })).toBeNull();
    expect(valueOf(screen.getByTestId('field-groups'), 'Amount remaining')).toHaveTextContent(/^€1,250\.50$/);
    expect(valueOf(screen.getByLabelText('Key facts'), 'Amount')).toHaveTextContent(/^€1,250\.50$/);
  });

  it('reads a record that names no currency in the base currency, its lines too', async () => {
    const { currency: _euros, ...inBase } = invoiceRecord;
    api.on('GET /netsuite/portal-record', (url) => json({ data: url.searchParams.get('tab') === 'item' ? invoiceLines : inBase }));
    renderRoutes(routes, '/invoice/view?id=77');
    const table = await screen.findByRole('table', { name: 'Line items' });
    expect(within(table).getByRole('rowheader', { name: 'Total' }).nextElementSibling).toHaveTextContent(/^\$1,250\.50$/);
    expect(valueOf(screen.getByTestId('field-groups'), 'Amount remaining')).toHaveTextContent(/^\$1,250\.50$/);
  });

  it('leaves out a sublist with no lines when another has some (a bill of expenses only)', async () => {
    const expenses = { name: 'expense', label: 'Expenses', source: 'lines' as const };
    const bill = { ...invoiceRecord, tabs: [...recordTabs(registry.find((k) => k.name === 'invoice')!, invoiceRecord), expenses] };
    const byTab = { item: { ...invoiceLines, rows: [] }, expense: invoiceLines };
    const answer = (url: URL) => {
      const tab = url.searchParams.get('tab') as keyof typeof byTab | null;
      return json({ data: tab ? byTab[tab] : bill });
    };
    api.on('GET /netsuite/portal-record', answer);
    renderRoutes(routes, '/invoice/view?id=77');
    expect(await screen.findByRole('table', { name: 'Expenses' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Line items' })).toBeNull();
    expect(screen.queryByText(/has no line items/)).toBeNull();
  });

  it('offers the printable invoice', async () => {
    renderRoutes(routes, '/invoice/view?id=77');
    expect(await screen.findByRole('link', { name: 'Print' })).toHaveAttribute('href', '/invoice/view/print?id=77');
  });
});

describe('RecordViewPage: tabs', () => {
  it('switches tabs: a related tab is a table of linked records with totals', async () => {
    const user = userEvent.setup();
    const { location } = renderRoutes(routes, '/project/view?id=42');
    const tabs = await screen.findByRole('navigation', { name: 'Project sections' });
    await user.click(within(tabs).getByRole('link', { name: 'Billing' }));
    await waitFor(() => expect(location()).toBe('/project/view/billing?id=42'));
    await waitFor(() => expect(within(tabs).getByRole('link', { name: 'Billing' })).toHaveAttribute('aria-current', 'page'));
    expect(within(tabs).getByRole('link', { name: 'Details' })).not.toHaveAttribute('aria-current');
    const table = await screen.findByRole('table', { name: 'Billing' });
    // Every kind has a view page: the rows link to theirs.
    expect(within(table).getByRole('link', { name: 'Phase 1' })).toHaveAttribute('href', '/billing/view?id=501');
    expect(within(table).getByText('$3,500.25')).toBeInTheDocument();
    expect(screen.queryByTestId('field-groups')).toBeNull();
    expect(api.calls.some((c) => c.path === '/netsuite/portal-record' && c.params.get('tab') === 'billing')).toBe(true);
    // A tab keeps the record's title.
    expect(document.title).toBe('Wetland restoration · Project · Portico');
  });

  it('totals a tab’s rows per currency, never adding a row in another currency to the rest', async () => {
    api.on('GET /netsuite/portal-record', (url) =>
      json({
        data:
          url.searchParams.get('tab') === 'billing'
            ? {
                columns: [
                  { name: 'name', label: 'Milestone', type: 'text', sortable: true },
                  { name: 'custrecord_res_bil_amount', label: 'Amount', type: 'money', sortable: true },
                ],
                rows: [
                  { id: 501, name: 'Phase 1', custrecord_res_bil_amount: 1000 },
                  { id: 502, _currency: 'GBP', name: 'Phase 2', custrecord_res_bil_amount: 2500.25 },
                  { id: 503, name: 'Phase 3', custrecord_res_bil_amount: 500 },
                ],
                hasMore: false,
              }
            : projectRecord,
      }),
    );
    renderRoutes(routes, '/project/view/billing?id=42');
    const table = await screen.findByRole('table', { name: 'Billing' });
    expect(within(table).getAllByRole('row')[2]).toHaveTextContent('Phase 2£2,500.25');
    const footer = within(table).getByTestId('totals-row');
    expect(within(footer).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['$1,500.00', '£2,500.25']);
    expect(footer).not.toHaveTextContent('4,000.25');
  });

  it('shows a sublist tab', async () => {
    renderRoutes(routes, '/project/view/notes?id=42');
    const table = await screen.findByRole('table', { name: 'Notes' });
    expect(within(table).getByText('Site visit booked')).toBeInTheDocument();
  });

  it('asks again while the server completes the document, then refreshes the sublist tab', async () => {
    // For its first second the server is still fetching the whole document: the record
    // says so and the notes (a sublist of that document) are not all there yet.
    const start = Date.now();
    const complete = () => Date.now() - start > 1000;
    let recordCalls = 0;
    api.on('GET /netsuite/portal-record', (url) => {
      if (url.searchParams.get('tab') === 'notes') {
        const rows = complete() ? [{ id: 1, note: 'Site visit booked' }] : [{ id: 2, note: 'Older note' }];
        return json({ data: { columns: [{ name: 'note', label: 'Note', type: 'text', sortable: false }], rows } });
      }
      recordCalls++;
      return json({ data: { ...projectRecord, completing: !complete() } });
    });
    renderRoutes(routes, '/project/view/notes?id=42');
    const table = await screen.findByRole('table', { name: 'Notes' });
    expect(within(table).getByText('Older note')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Notes' })).getByText('Site visit booked')).toBeInTheDocument(), { timeout: 4000 });
    expect(recordCalls).toBeGreaterThanOrEqual(2);
  });

  it('lists files and downloads one', async () => {
    const user = userEvent.setup();
    const createObjectURL = vi.fn(() => 'blob:file');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderRoutes(routes, '/project/view/files?id=42');
    const button = await screen.findByRole('button', { name: 'Download site plan.pdf' });
    expect(screen.getByText('20.0 KB')).toBeInTheDocument();
    await user.click(button);
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('site plan.pdf');
    const call = api.calls.find((c) => c.params.get('fileId'))!;
    expect(Object.fromEntries(call.params)).toEqual({ type: 'project', id: '42', fileId: '9' });
  });

  it('says so for a tab the kind does not have', async () => {
    renderRoutes(routes, '/project/view/nonsense?id=42');
    expect(await screen.findByText('This project has no “nonsense” tab.')).toBeInTheDocument();
  });
});

describe('RecordViewPage: errors', () => {
  it('reports an unknown record', async () => {
    renderRoutes(routes, '/project/view?id=999');
    expect(await screen.findByText('Not found')).toBeInTheDocument();
    expect(screen.getByText(/No such record/)).toBeInTheDocument();
  });

  it('reports a view address without an id', async () => {
    renderRoutes(routes, '/project/view');
    expect(await screen.findByText(/needs \?id=/)).toBeInTheDocument();
  });
});
