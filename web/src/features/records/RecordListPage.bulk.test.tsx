/**
 * The list page's totals, estimated counts, page jump, selection, export of the selection
 * and bulk edit, against a fake record API.
 */
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAppStore } from '../../lib/appState';
import { useSessionStore } from '../../lib/session/store';
import RecordListPage from './RecordListPage';
import { fakeApi, json, kinds, problem, renderRoutes, signIn, type FakeApi } from './testing';
import type { BulkResult, Kind, ListConfig, ListPage, Row } from './types';

const invoiceKind: Kind = {
  name: 'invoice',
  route: 'invoice',
  label: 'Invoice',
  plural: 'Invoices',
  erpType: 'invoice',
  defaultList: 'customsearch_res_invoice_list',
  fields: [
    { name: 'memo', label: 'Description', column: 'title', type: 'text', sortable: true },
    { name: 'tranid', label: 'Invoice number', column: 'code', type: 'text', sortable: true, readOnly: true },
    { name: 'status', label: 'Status', column: 'status', type: 'status', choices: ['Open', 'Paid in full', 'Overdue'], sortable: true, required: true },
    { name: 'total', label: 'Amount', column: 'amount', type: 'money', sortable: true, summable: true, currency: 'EUR' },
    { name: 'trandate', label: 'Invoice date', column: 'occurred_on', type: 'date', sortable: true },
    { name: 'duedate', label: 'Due date', column: 'fields.duedate', type: 'date', sortable: true },
    { name: 'amountremaining', label: 'Amount remaining', column: 'fields.amountremaining', type: 'money', sortable: true, summable: true, readOnly: true, currency: 'EUR' },
    { name: 'otherrefnum', label: 'PO/reference', column: 'fields.otherrefnum', type: 'text', sortable: false },
  ],
  defaultSort: { field: 'trandate', dir: 'desc' },
  tabs: [],
  canCreate: false,
  canEdit: true,
  canApprove: false,
};

const routes = [{ path: '/invoice', handle: { model: 'invoice' }, children: [{ path: 'list', handle: { isList: true }, Component: RecordListPage }] }];

const builtIn: ListConfig = {
  id: invoiceKind.defaultList,
  type: 'invoice',
  name: 'All invoices',
  columns: ['memo', 'status', 'total', 'trandate'],
  filter: '',
  sort: { field: 'trandate', dir: 'desc' },
  visibility: 'role',
  builtIn: true,
  editable: false,
};

function rowsOf(from: number, n: number): Row[] {
  return Array.from({ length: n }, (_, i) => ({ id: from + i, memo: `Invoice ${from + i}`, status: 'Open', total: 100 + i, trandate: '2026-01-02', amountremaining: 10 }));
}

const columnsFor = (names: string[]) =>
  names.map((name) => {
    const f = invoiceKind.fields.find((x) => x.name === name)!;
    return { name, label: f.label, type: f.type, sortable: f.sortable };
  });

/** A list of `pages` pages of 2 rows; page n is at cursor "c<n>". */
function pageAt(url: URL, pages = 3): ListPage {
  const cursor = url.searchParams.get('cursor');
  const n = cursor ? Number(cursor.slice(1)) : 1;
  const cols = url.searchParams.get('columns')?.split(',') ?? builtIn.columns;
  return {
    list: { id: builtIn.id, name: builtIn.name },
    columns: columnsFor(cols),
    rows: rowsOf(n * 10, 2),
    hasMore: n < pages,
    nextCursor: n < pages ? `c${n + 1}` : null,
  };
}

// A busy machine renders slowly: wait up to 5 s for what the page shows.
configure({ asyncUtilTimeout: 5000 });

let api: FakeApi;
const lists = () => api.calls.filter((c) => c.path === '/netsuite/portal-list');

beforeEach(() => {
  signIn();
  resetAppStore();
  api = fakeApi();
  api.on('GET /kinds', () => json({ data: [...kinds, invoiceKind] }));
  api.on('GET /netsuite/listConfiguration', () => json({ data: { lists: [builtIn], defaultId: builtIn.id } }));
  api.on('GET /netsuite/portal-list', (url) => {
    if (url.searchParams.get('count') === 'true') return json({ data: { ...pageAt(url), total: 1_234_567, totalEstimated: true } });
    if (url.searchParams.get('totals') === 'true') return json({ data: { ...pageAt(url), totals: { total: [{ total: 98765.4 }], amountremaining: [{ total: 1500 }] }, totalsEstimated: false } });
    return json({ data: pageAt(url) });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.getState().clearSession();
});

describe('list totals, counts and order', () => {
  it('shows the kind’s default order, an estimated count and totals over the whole result', async () => {
    renderRoutes(routes, '/invoice/list');
    const table = await screen.findByRole('table');
    expect(screen.getByTestId('list-sort')).toHaveTextContent('Sorted by Invoice date, newest first');
    expect(within(table).getByRole('columnheader', { name: /Invoice date/ })).toHaveAttribute('aria-sort', 'descending');
    expect(await screen.findByTestId('list-total')).toHaveTextContent('≈ 1.2M records');
    expect(screen.getByTestId('page-count')).toHaveTextContent('of ~24,692');
    // The totals row: the server's sums, formatted as the cells are (in the field's currency).
    const footer = await screen.findByTestId('totals-row');
    // They cover every matching record, not the page: the label says how many (estimated here).
    await waitFor(() => expect(within(footer).getByRole('rowheader')).toHaveTextContent(/^Total of ≈ 1\.2M invoices$/));
    expect(footer).toHaveTextContent('€98,765.40');
    // Its totals are cells of that row, not headers of their columns.
    expect(within(footer).queryAllByRole('columnheader')).toEqual([]);
    expect(within(footer).getByRole('cell', { name: '€98,765.40' })).toBeInTheDocument();
    const totals = lists().find((c) => c.params.get('totals') === 'true')!;
    expect(Object.fromEntries(totals.params)).toEqual({ type: 'invoice', pageSize: '1', totals: 'true' });
  });

  it('marks estimated totals, and asks for none when no column can be totalled', async () => {
    api.on('GET /netsuite/portal-list', (url) =>
      json({ data: url.searchParams.get('totals') === 'true' ? { ...pageAt(url), totals: { total: [{ total: 5 }, { unit: 'GBP', total: 2 }] }, totalsEstimated: true } : pageAt(url) }),
    );
    const { router } = renderRoutes(routes, '/invoice/list');
    const footer = await screen.findByTestId('totals-row');
    expect(within(footer).getByRole('rowheader')).toHaveTextContent('≈ Total');
    // Estimated totals of two currencies: both, each its own item, still marked estimated.
    expect(within(within(footer).getByRole('list')).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['€5.00', '£2.00']);
    await router.navigate('/invoice/list?cols=memo,duedate');
    await screen.findByRole('columnheader', { name: /Due date/ });
    await waitFor(() => expect(screen.queryByTestId('totals-row')).toBeNull());
    expect(lists().filter((c) => c.params.get('totals') === 'true' && c.params.get('columns') === 'memo,duedate')).toEqual([]);
  });

  it('formats a row in another currency in its own, and totals each currency on its own', async () => {
    api.on('GET /netsuite/portal-list', (url) => {
      const page = pageAt(url, 1);
      // The second invoice is in pounds: its row says so; the totals are one per currency.
      page.rows[1] = { ...page.rows[1]!, _currency: 'GBP', total: 3000 };
      page.rows[0] = { ...page.rows[0]!, total: 12000 };
      if (url.searchParams.get('totals') === 'true') return json({ data: { ...page, totals: { total: [{ total: 12000 }, { unit: 'GBP', total: 3000 }] } } });
      return json({ data: page });
    });
    renderRoutes(routes, '/invoice/list');
    const table = await screen.findByRole('table');
    const amounts = (await within(table).findAllByRole('row')).slice(1, 3).map((r) => within(r).getAllByRole('cell')[3]!.textContent);
    expect(amounts).toEqual(['€12,000.00', '£3,000.00']);
    // The totals row: never one sum of euros and pounds, but a list of both, each read out on its own.
    const footer = await screen.findByTestId('totals-row');
    const cell = within(footer).getByRole('cell', { name: /€12,000\.00/ });
    const items = within(cell).getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toEqual(['€12,000.00', '£3,000.00']);
    expect(footer).not.toHaveTextContent('15,000');
  });

  it('in a dollar company with Canadian clients: each row in its own dollars, a total per currency, never one sum', async () => {
    const usd = { ...invoiceKind, fields: invoiceKind.fields.map((f) => (f.type === 'money' ? { ...f, currency: 'USD' } : f)) };
    api.on('GET /kinds', () => json({ data: [...kinds, usd] }));
    api.on('GET /netsuite/portal-list', (url) => {
      const page = pageAt(url, 1);
      page.columns = columnsFor(['memo', 'status', 'total', 'amountremaining']).map((c) => ({ ...c, summable: c.type === 'money' }));
      page.rows = [
        { id: 16, memo: 'Invoice 16', status: 'Open', total: 3000.5, amountremaining: 3000.5, _currency: 'CAD' },
        { id: 17, memo: 'Invoice 17', status: 'Open', total: 12000, amountremaining: 0 },
      ];
      if (url.searchParams.get('totals') === 'true') {
        return json({ data: { ...page, totals: { total: [{ total: 12000 }, { unit: 'CAD', total: 3000.5 }], amountremaining: [{ total: 0 }, { unit: 'CAD', total: 3000.5 }] } } });
      }
      return json({ data: page });
    });
    renderRoutes(routes, '/invoice/list?cols=memo,status,total,amountremaining');
    const table = await screen.findByRole('table');
    const cells = (await within(table).findAllByRole('row')).slice(1, 3).map((r) => within(r).getAllByRole('cell').slice(3, 5).map((c) => c.textContent));
    expect(cells).toEqual([
      ['CA$3,000.50', 'CA$3,000.50'],
      ['$12,000.00', '$0.00'],
    ]);
    const footer = await screen.findByTestId('totals-row');
    const totals = within(footer).getAllByRole('list').map((l) => within(l).getAllByRole('listitem').map((li) => li.textContent));
    expect(totals).toEqual([
      ['$12,000.00', 'CA$3,000.50'],
      ['$0.00', 'CA$3,000.50'],
    ]);
    expect(footer).not.toHaveTextContent('15,000.50');
    expect(footer).not.toHaveTextContent('3,000.50 CAD');
  });

  it('offers every field in the column chooser, says which cannot be sorted, and reorders', async () => {
    const user = userEvent.setup();
    const { location } = renderRoutes(routes, '/invoice/list');
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.type(await screen.findByLabelText('Find a field'), 'ref');
    await user.click(screen.getByRole('checkbox', { name: 'PO/reference (not sortable)' }));
    await waitFor(() => expect(location()).toBe('/invoice/list?cols=memo%2Cstatus%2Ctotal%2Ctrandate%2Cotherrefnum'));
    // Its box is gone and no other field matches: the focus goes to the added column.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Remove PO/reference' })).toHaveFocus());
    await user.click(await screen.findByRole('button', { name: 'Move PO/reference up' }));
    await waitFor(() => expect(location()).toBe('/invoice/list?cols=memo%2Cstatus%2Ctotal%2Cotherrefnum%2Ctrandate'));
    expect(screen.getByRole('button', { name: 'Move PO/reference up' })).toHaveFocus();
    const header = await screen.findByRole('columnheader', { name: 'PO/reference, not sortable' });
    expect(header).toHaveAttribute('title', 'PO/reference cannot be sorted');
  });
});

describe('page jump', () => {
  it('goes forward by reading the pages between with one narrow column, back for free, and starts at the top', async () => {
    const user = userEvent.setup();
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    api.on('GET /netsuite/portal-list', (url) => json({ data: { ...pageAt(url, 5), ...(url.searchParams.get('count') ? { total: 250 } : {}) } }));
    const { location } = renderRoutes(routes, '/invoice/list');
    await screen.findByRole('table', { name: /page 1$/ });
    expect(await screen.findByTestId('page-count')).toHaveTextContent('of 5');
    const box = screen.getByTestId('page-number');
    await user.clear(box);
    await user.type(box, '4{Enter}');
    await waitFor(() => expect(location()).toBe('/invoice/list?after=c2&after=c3&after=c4'));
    // Pages 2 and 3 were read on the way, with the title column only.
    const walked = lists().filter((c) => c.params.get('columns') === 'memo');
    expect(walked.map((c) => c.params.get('cursor'))).toEqual(['c2', 'c3']);
    const table = await screen.findByRole('table', { name: /page 4$/ });
    await waitFor(() => expect(table).toHaveFocus());
    expect(scrollTo).toHaveBeenCalledWith({ top: 0 });
    expect(screen.getByTestId('page-number')).toHaveValue('4');
    // Back to page 2: its cursor is known.
    const before = lists().length;
    await user.clear(screen.getByTestId('page-number'));
    await user.type(screen.getByTestId('page-number'), '2{Enter}');
    await waitFor(() => expect(location()).toBe('/invoice/list?after=c2'));
    expect(lists().slice(before).every((c) => c.params.get('cursor') === 'c2' && !c.params.has('columns'))).toBe(true);
    // Past the end: said, nothing asked.
    await user.clear(screen.getByTestId('page-number'));
    await user.type(screen.getByTestId('page-number'), '9{Enter}');
    expect(await screen.findByText('There are 5 pages.')).toBeInTheDocument();
    expect(location()).toBe('/invoice/list?after=c2');
    await user.click(screen.getByRole('button', { name: 'First page' }));
    await waitFor(() => expect(location()).toBe('/invoice/list'));
  });
});

describe('selection', () => {
  it('selects every matching record across pages when they are few enough, and says the bound when not', async () => {
    const user = userEvent.setup();
    api.on('GET /netsuite/portal-list', (url) => {
      if (url.searchParams.get('count') === 'true') return json({ data: { ...pageAt(url), total: 5, totalEstimated: false } });
      // Asked for every match at once: five rows, on one page.
      if (url.searchParams.get('pageSize') === '200') return json({ data: { ...pageAt(url), rows: rowsOf(10, 5), hasMore: false, nextCursor: null } });
      return json({ data: pageAt(url) });
    });
    renderRoutes(routes, '/invoice/list?filter=status+eq+Open');
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('checkbox', { name: 'Select all rows on this page' }));
    expect(screen.getByTestId('selection-count')).toHaveTextContent('2 invoices selected');
    await user.click(await screen.findByRole('button', { name: 'Select all 5 matching' }));
    await waitFor(() => expect(screen.getByTestId('selection-count')).toHaveTextContent('5 invoices selected'));
    expect(screen.queryByRole('button', { name: /Select all \d+ matching/ })).toBeNull();
    // The same list, filter and order, read at once.
    const all = api.calls.find((c) => c.params.get('pageSize') === '200')!;
    expect([all.params.get('filter'), all.params.get('cursor')]).toEqual(['status eq Open', null]);
  });

  it('never offers to select more than it may: the count of matches and the bound instead', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/invoice/list');
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('checkbox', { name: 'Select all rows on this page' }));
    expect(await screen.findByTestId('selection-bound')).toHaveTextContent('About 1,234,567 match; at most 200 can be selected at a time.');
    expect(screen.queryByRole('button', { name: /matching/ })).toBeNull();
  });

  it('selects rows (by checkbox, the page at once, or x on a row) across pages, and exports them', async () => {
    const user = userEvent.setup();
    api.on('GET /netsuite/portal-bulk', () => new Response('Description\nInvoice 11\n', { headers: { 'Content-Type': 'text/csv' } }));
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:csv'), revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderRoutes(routes, '/invoice/list');
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('checkbox', { name: 'Select Invoice 11' }));
    expect(screen.getByTestId('selection-count')).toHaveTextContent('1 invoice selected');
    // x on a row's link toggles it.
    within(table).getByRole('link', { name: 'Invoice 10' }).focus();
    await user.keyboard('x');
    expect(within(table).getByRole('checkbox', { name: 'Select Invoice 10' })).toBeChecked();
    expect(within(table).getByRole('checkbox', { name: 'Select all rows on this page' })).toBeChecked();
    // The selection stays while paging.
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    const next = await screen.findByRole('table', { name: /page 2$/ });
    expect(within(next).getByRole('checkbox', { name: 'Select all rows on this page' })).not.toBeChecked();
    await user.click(within(next).getByRole('checkbox', { name: 'Select all rows on this page' }));
    expect(screen.getByTestId('selection-count')).toHaveTextContent('4 invoices selected');

    await user.click(screen.getByRole('button', { name: 'Export selected' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const exported = api.calls.find((c) => c.path === '/netsuite/portal-bulk')!;
    expect(Object.fromEntries(exported.params)).toEqual({ type: 'invoice', columns: 'memo,status,total,trandate', ids: '11,10,20,21' });
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('invoice-selected.csv');
    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByTestId('selection-count')).toBeNull();
  });

  it('drops the selection when the search changes what the list holds', async () => {
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/invoice/list');
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('checkbox', { name: 'Select Invoice 11' }));
    await router.navigate('/invoice/list?q=zzz');
    await waitFor(() => expect(screen.queryByTestId('selection-count')).toBeNull());
  });
});

describe('bulk edit', () => {
  it('sets one editable field on the selected records, with an Idempotency-Key, and reports each failure', async () => {
    const user = userEvent.setup();
    let sent: { ids: number[]; field: string; value: unknown } | undefined;
    api.on('POST /netsuite/portal-bulk', (_url, init) => {
      sent = JSON.parse(String(init?.body));
      const answer: BulkResult = {
        field: 'status',
        saved: 1,
        failed: 1,
        results: [
          { id: 10, title: 'Invoice 10', saved: true, write: { state: 'pending' } },
          { id: 11, title: 'Invoice 11', saved: false, message: 'This record no longer exists.' },
        ],
      };
      return json({ data: answer });
    });
    renderRoutes(routes, '/invoice/list');
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('checkbox', { name: 'Select all rows on this page' }));
    await user.click(screen.getByRole('button', { name: 'Edit a field…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit 2 invoices' });
    // Read-only fields and the title are not offered.
    const options = within(within(dialog).getByLabelText('Field')).getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['Status', 'Amount', 'Invoice date', 'Due date', 'PO/reference']);
    // A required field cannot be emptied, and offers no choice to: said before anything is sent.
    expect(within(dialog).queryByRole('radio')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Apply to 2 invoices' }));
    expect(await within(dialog).findByText('Enter a value for Status.')).toBeInTheDocument();
    expect(sent).toBeUndefined();
    await user.selectOptions(within(dialog).getByLabelText('Status'), 'Overdue');
    await user.click(within(dialog).getByRole('button', { name: 'Apply to 2 invoices' }));
    const result = await within(dialog).findByTestId('bulk-result');
    expect(sent).toEqual({ ids: [10, 11], field: 'status', value: 'Overdue' });
    const post = api.calls.find((c) => c.method === 'POST')!;
    expect(post.params.get('type')).toBe('invoice');
    expect(post.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{20,}$/);
    expect(result).toHaveTextContent('Saved 1 of 2 invoices.');
    expect(result).toHaveTextContent('The changes are on their way to NetSuite.');
    expect(result).toHaveTextContent('Invoice 11: This record no longer exists.');
    // The dialog still names what it edited, though the saved one is no longer selected.
    expect(screen.getByRole('dialog', { name: 'Edit 2 invoices' })).toBe(dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    // The one not saved stays selected; the list was asked again.
    expect(screen.getByTestId('selection-count')).toHaveTextContent('1 invoice selected');
    await waitFor(() => expect(lists().filter((c) => !c.params.has('count') && !c.params.has('totals')).length).toBeGreaterThan(1));
  });

  it('empties a field only when asked to in so many words', async () => {
    const user = userEvent.setup();
    let sent: { ids: number[]; field: string; value: unknown } | undefined;
    api.on('POST /netsuite/portal-bulk', (_url, init) => {
      sent = JSON.parse(String(init?.body));
      return json({ data: { field: 'otherrefnum', saved: 2, failed: 0, results: [{ id: 10, saved: true }, { id: 11, saved: true }] } satisfies BulkResult });
    });
    renderRoutes(routes, '/invoice/list');
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('checkbox', { name: 'Select all rows on this page' }));
    await user.click(screen.getByRole('button', { name: 'Edit a field…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit 2 invoices' });
    await user.selectOptions(within(dialog).getByLabelText('Field'), 'PO/reference');
    // An empty input is not a request to clear.
    await user.click(within(dialog).getByRole('button', { name: 'Apply to 2 invoices' }));
    expect(await within(dialog).findByText('Enter a value for PO/reference, or choose to clear the field.')).toBeInTheDocument();
    expect(sent).toBeUndefined();
    await user.click(within(dialog).getByRole('radio', { name: 'Clear the field' }));
    expect(within(dialog).getByText('PO/reference will be emptied on each of the 2 selected invoices.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Clear on 2 invoices' }));
    await within(dialog).findByTestId('bulk-result');
    expect(sent).toEqual({ ids: [10, 11], field: 'otherrefnum', value: null });
  });

  it('shows the server’s refusal of the whole request in the dialog', async () => {
    const user = userEvent.setup();
    api.on('POST /netsuite/portal-bulk', () => problem(422, 'Please correct the highlighted fields.', [{ field: 'value', message: 'Choose one of: Open, Paid in full, Overdue.' }]));
    renderRoutes(routes, '/invoice/list');
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('checkbox', { name: 'Select Invoice 10' }));
    await user.click(screen.getByRole('button', { name: 'Edit a field…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit 1 invoice' });
    await user.selectOptions(within(dialog).getByLabelText('Field'), 'otherrefnum');
    await user.type(within(dialog).getByLabelText('PO/reference'), 'PO-7');
    await user.click(within(dialog).getByRole('button', { name: 'Apply to 1 invoice' }));
    expect(await within(dialog).findByText('Choose one of: Open, Paid in full, Overdue.')).toBeInTheDocument();
  });

  it('sets an amount in the selected records’ one currency, shown in its input', async () => {
    const user = userEvent.setup();
    api.on('GET /netsuite/portal-list', (url) => {
      const page = pageAt(url, 1);
      // Both invoices are in pounds, not the base euro.
      page.rows = page.rows.map((r) => ({ ...r, _currency: 'GBP' }));
      return json({ data: page });
    });
    let sent: unknown;
    api.on('POST /netsuite/portal-bulk', (_url, init) => {
      sent = JSON.parse(String(init?.body));
      return json({ data: { field: 'total', saved: 2, failed: 0, results: [10, 11].map((id) => ({ id, saved: true })) } satisfies BulkResult });
    });
    renderRoutes(routes, '/invoice/list');
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('checkbox', { name: 'Select all rows on this page' }));
    await user.click(screen.getByRole('button', { name: 'Edit a field…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit 2 invoices' });
    await user.selectOptions(within(dialog).getByLabelText('Field'), 'total');
    const amount = within(dialog).getByLabelText('Amount');
    await user.type(amount, '250');
    expect(amount).toHaveValue('£250');
    await user.click(within(dialog).getByRole('button', { name: 'Apply to 2 invoices' }));
    await within(dialog).findByTestId('bulk-result');
    expect(sent).toEqual({ ids: [10, 11], field: 'total', value: 250 });
  });

  it('in the base currency, the amount’s input says so', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, '/invoice/list');
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('checkbox', { name: 'Select Invoice 10' }));
    await user.click(screen.getByRole('button', { name: 'Edit a field…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit 1 invoice' });
    await user.selectOptions(within(dialog).getByLabelText('Field'), 'total');
    await user.type(within(dialog).getByLabelText('Amount'), '99');
    expect(within(dialog).getByLabelText('Amount')).toHaveValue('€99');
  });

  it('offers no amount for records in several currencies, and says why', async () => {
    const user = userEvent.setup();
    api.on('GET /netsuite/portal-list', (url) => {
      const page = pageAt(url, 1);
      page.rows[1] = { ...page.rows[1]!, _currency: 'GBP' };
      return json({ data: page });
    });
    renderRoutes(routes, '/invoice/list');
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('checkbox', { name: 'Select all rows on this page' }));
    await user.click(screen.getByRole('button', { name: 'Edit a field…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit 2 invoices' });
    const field = within(dialog).getByLabelText('Field');
    expect(within(field).getAllByRole('option').map((o) => o.textContent)).toEqual(['Status', 'Invoice date', 'Due date', 'PO/reference']);
    expect(field).toHaveAccessibleDescription('Amounts can be set in bulk only on records in one currency (these are in EUR and GBP).');
  });

  it('offers no amount when the list shows none, so the records’ currencies are unknown', async () => {
    const user = userEvent.setup();
    api.on('GET /netsuite/portal-list', (url) => {
      const page = pageAt(url, 1);
      // Read without a money column: no amount, and so no currency, in the rows.
      page.rows = page.rows.map(({ id, memo, status, trandate }) => ({ id, memo, status, trandate }));
      return json({ data: page });
    });
    renderRoutes(routes, '/invoice/list?cols=memo,status,trandate');
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('checkbox', { name: 'Select Invoice 10' }));
    await user.click(screen.getByRole('button', { name: 'Edit a field…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit 1 invoice' });
    const field = within(dialog).getByLabelText('Field');
    expect(within(field).queryByRole('option', { name: 'Amount' })).toBeNull();
    expect(field).toHaveAccessibleDescription('Amounts can be set in bulk only from a list that shows an amount, so that each record’s currency is known.');
  });

  it('is not offered to a role that may not edit the kind', async () => {
    const user = userEvent.setup();
    api.on('GET /kinds', () => json({ data: [...kinds, { ...invoiceKind, canEdit: false }] }));
    renderRoutes(routes, '/invoice/list');
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('checkbox', { name: 'Select Invoice 10' }));
    expect(screen.getByRole('button', { name: 'Export selected' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit a field…' })).toBeNull();
  });
});
